/**
 * The publish gate (issue 36): a workflow with a gate evaluates its draft on the gate's dataset before each publish,
 * and the publish is refused (409 EVAL_GATE_FAILED) when a scorer's mean is under the gate's `minMean`, or has
 * dropped from the published version's by more than `maxDrop`. The published version's evaluation on the same
 * dataset version and scorers is reused when one has succeeded already; else it runs beside the draft's.
 */
import { PaiError } from '@/engine/errors';
import { scorerSchema } from '@/engine/evaluation/scorers';
import type { EvaluationGate, EvaluationRecord } from '@/engine/store/evaluations';
import type { WorkflowRecord } from '@/engine/store/types';
import { answerWith } from '@/lib/http/errors';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { auditAction } from '../auth/audit';
import { can } from '../auth/policy';
import { getDatasetOr404 } from '../datasets/datasets';
import { compareEvaluations } from './compare';
import { gateWeakenings } from './gate-weakening';
import { DEFAULT_CONCURRENCY, type GateBody } from './evaluation-schemas';
import { createEvaluation, readEvaluation } from './evaluations';
import { scorerSummary, summarize } from './summary';

/** How long a publish waits for the gate's evaluations. */
const GATE_MAX_MS = 10 * 60_000;

export interface GateFailure {
  scorer: string;
  rule: 'minMean' | 'maxDrop';
  /** The draft's mean, or its drop from the published version's mean. */
  value: number | null;
  limit: number;
}

export interface GateOutcome {
  evaluationId: string;
  baselineEvaluationId: string | null;
  summary: ReturnType<typeof summarize>;
  failures: GateFailure[];
  comparison: Awaited<ReturnType<typeof compareEvaluations>> | null;
}

/**
 * Stores (or with null removes) a workflow's gate; its dataset must exist in the workspace. A change that weakens the
 * gate (gate-weakening.ts) needs the role that may force a publish (403 FORBIDDEN, nothing changed). Answers the gate
 * before and after and the weakenings, for the audit log.
 */
export async function setGate(app: App, caller: Caller, wf: WorkflowRecord, gate: GateBody | null) {
  if (gate)
    await getDatasetOr404(app, caller, gate.datasetId).catch((e) => {
      throw e instanceof PaiError ? new PaiError(e.code, e.message, { path: 'gate.datasetId' }) : e;
    });
  const before = await app.stores.evaluations.getGate(wf.id);
  const after = gate as EvaluationGate | null;
  const weakenings = gateWeakenings(before, after);
  if (weakenings.length && !can(caller.role, 'forcePublish')) {
    const what = weakenings.map((w) => w.reason).join(', ');
    throw new PaiError('FORBIDDEN', `only a workspace owner may weaken the evaluation gate; this change ${what}`, {
      path: weakenings[0].path === 'gate' ? 'gate' : `gate.${weakenings[0].path}`,
      details: { weakenings },
    });
  }
  await app.stores.evaluations.setGate(wf.id, after);
  return { before, after, weakenings };
}

/** setGate, and the change in the audit log: `workflow.gate_weakened` (with the weakenings) or `gate_changed`. */
export async function changeGate(app: App, caller: Caller, req: Request, wf: WorkflowRecord, gate: GateBody | null) {
  const change = await setGate(app, caller, wf, gate);
  if (JSON.stringify(change.before) === JSON.stringify(change.after)) return change;
  const weakened = change.weakenings.length > 0;
  await auditAction(
    app.stores.audit,
    caller,
    req,
    weakened ? 'workflow.gate_weakened' : 'workflow.gate_changed',
    wf.id,
    {
      before: change.before,
      after: change.after,
      ...(weakened ? { weakenings: change.weakenings.map((w) => w.reason) } : {}),
    },
  );
  return change;
}

const sameScorers = (a: EvaluationRecord['scorers'], b: EvaluationRecord['scorers']) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The published version's latest succeeded evaluation on the same dataset version and scorers, if any. */
async function reusableBaseline(app: App, caller: Caller, wf: WorkflowRecord, version: number, like: EvaluationRecord) {
  const list = await app.stores.evaluations.list(caller.workspaceId, wf.id, 50);
  return (
    list.find(
      (e) =>
        e.version === version &&
        e.status === 'succeeded' &&
        e.datasetId === like.datasetId &&
        e.datasetVersion === like.datasetVersion &&
        sameScorers(e.scorers, like.scorers),
    ) ?? null
  );
}

async function settledOrTimeout(app: App, ev: EvaluationRecord) {
  const done = await app.evaluations.settled(ev, GATE_MAX_MS);
  if (done.status === 'queued' || done.status === 'running')
    throw answerWith(
      new PaiError('EVAL_GATE_TIMEOUT', `the gate's evaluation ${ev.id} did not finish in time; nothing was published`),
      409,
    );
  return done;
}

/** Evaluates the draft against the workflow's gate; null when the workflow has none. */
export async function runGate(app: App, caller: Caller, wf: WorkflowRecord): Promise<GateOutcome | null> {
  const gate = await app.stores.evaluations.getGate(wf.id);
  if (!gate) return null;
  const body = {
    datasetId: gate.datasetId,
    scorers: gate.scorers.map((s) => scorerSchema.parse(s)),
    concurrency: gate.concurrency ?? DEFAULT_CONCURRENCY,
  };
  const draft = await createEvaluation(app, caller, wf, { ...body, version: 'draft' }, 'gate');
  const current = gate.maxDrop && wf.currentVersionId ? await app.store.getVersion(wf.currentVersionId) : null;
  const baseline = current
    ? ((await reusableBaseline(app, caller, wf, current.version, draft)) ??
      (await createEvaluation(
        app,
        caller,
        wf,
        { ...body, version: current.version, datasetVersion: draft.datasetVersion },
        'gate',
      )))
    : null;
  const [d, b] = await Promise.all([
    settledOrTimeout(app, draft),
    baseline ? settledOrTimeout(app, baseline) : Promise.resolve(null),
  ]);
  const summary = (await readEvaluation(app, d)).summary;
  const comparison = b ? await compareEvaluations(app, b, d) : null;
  const failures: GateFailure[] = [];
  for (const [name, limit] of Object.entries(gate.minMean ?? {})) {
    const mean = scorerSummary(summary, name)?.mean ?? null;
    if (mean === null || mean < limit) failures.push({ scorer: name, rule: 'minMean', value: mean, limit });
  }
  for (const [name, limit] of Object.entries(gate.maxDrop ?? {})) {
    const diff = comparison?.scorers[name]?.diff;
    // A drop is b's mean under a's: diff (draft − published) below −limit.
    if (typeof diff === 'number' && -diff > limit + 1e-9)
      failures.push({ scorer: name, rule: 'maxDrop', value: Math.round(-diff * 1e4) / 1e4, limit });
  }
  if (d.status !== 'succeeded') failures.push({ scorer: '*', rule: 'minMean', value: null, limit: 0 });
  return { evaluationId: d.id, baselineEvaluationId: b?.id ?? null, summary, failures, comparison };
}

/** The words of a refusal: each failure, as a person would say it. */
export function describeFailures(failures: GateFailure[]): string {
  return failures
    .map((f) =>
      f.scorer === '*'
        ? 'the evaluation did not finish'
        : f.rule === 'minMean'
          ? `${f.scorer}: mean ${f.value ?? 'none'} is under ${f.limit}`
          : `${f.scorer}: dropped ${f.value} from the published version, more than ${f.limit}`,
    )
    .join('; ');
}
