/**
 * Scoring one evaluation row once its run has ended: the run's outputs, duration, cost and the knowledge nodes'
 * citations go to every scorer (engine/evaluation/scorers.ts). A run that did not succeed scores 0 on every scorer,
 * with the run's error as the reason, so it counts against the means instead of vanishing from them. The LLM judges
 * call their model as the run's own nodes do — a credential of the run's workspace, bound to its host, else the
 * server's model — and their cost is added to the row's.
 */
import type { Embedder as KnowledgeEmbedder } from '@/engine/knowledge/types';
import type { Embedder } from '@/engine/node-kit/agent-services';
import { providerSettings } from '@/engine/nodes/shared/provider-settings';
import { score, type JudgeFn, type ScoredRun, type ScorerSpec } from '@/engine/evaluation/scorers';
import type { EvaluationRowRecord, RowResult, RowScore } from '@/engine/store/evaluations';
import type { RunRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { envSecrets } from '../credentials/env-secrets';

const failAll = (specs: ScorerSpec[], reason: string): Record<string, RowScore> =>
  Object.fromEntries(specs.map((s) => [s.name, { score: 0, passed: false, reason }]));

/** A row that could not run at all (its inputs were refused, say): every scorer fails with why. */
export function unrunnableRow(
  specs: ScorerSpec[],
  error: { code: string; message: string },
  reason = `the run could not start: ${error.message}`,
): RowResult {
  return {
    status: 'failed',
    outputs: null,
    scores: failAll(specs, reason),
    error,
    durationMs: null,
    costUsd: null,
  };
}

function durationOf(run: RunRecord): number | null {
  if (!run.startedAt || !run.finishedAt) return null;
  return Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt));
}

/** The knowledge nodes' hits, in the order the run retrieved them. */
async function retrievedOf(app: App, runId: string): Promise<ScoredRun['retrieved']> {
  const out: NonNullable<ScoredRun['retrieved']> = [];
  for (const n of await app.store.getNodeRuns(runId)) {
    if (n.type !== 'knowledge' || n.status !== 'succeeded') continue;
    const hits = (n.output as { hits?: unknown } | null)?.hits;
    if (!Array.isArray(hits)) continue;
    for (const h of hits as Array<Record<string, unknown>>)
      out.push({ title: String(h.title ?? ''), documentId: typeof h.documentId === 'string' ? h.documentId : null });
  }
  return out;
}

/** The knowledge service's embedder as the scorers take it (plain arrays). */
function scorerEmbedder(e: KnowledgeEmbedder): Embedder {
  return {
    dimension: 0,
    id: e.model,
    embed: async (texts) => (await e.embed(texts)).map((v) => Array.from(v)),
  };
}

/** The judge of a row's run: its credential (resolved as a node of that run would) or the server's model. */
function judgeOf(app: App, runId: string): JudgeFn {
  return async ({ credentialId, ...req }) => {
    const settings = await providerSettings(
      { credentials: app.credentials, runId, secrets: envSecrets() },
      { credentialId },
    );
    return app.llm(settings).chat(req);
  };
}

export async function scoreRow(
  app: App,
  specs: ScorerSpec[],
  row: EvaluationRowRecord,
  run: RunRecord,
  signal?: AbortSignal,
): Promise<RowResult> {
  const durationMs = durationOf(run);
  const cost = (await app.stores.analytics.runCosts([run.id])).get(run.id);
  let costUsd: number | null = cost ? cost.costUsd : 0;
  if (run.status !== 'succeeded') {
    const why = run.error?.message ?? `the run ended ${run.status}`;
    return {
      status: 'scored',
      outputs: run.outputs ?? null,
      scores: failAll(specs, `the run ${run.status}: ${why}`),
      error: run.error
        ? { code: run.error.code, message: run.error.message }
        : { code: 'RUN_NOT_SUCCEEDED', message: why },
      durationMs,
      costUsd,
    };
  }
  const scored: ScoredRun = {
    inputs: row.inputs,
    outputs: run.outputs ?? {},
    expected: row.expected,
    durationMs,
    costUsd,
    retrieved: specs.some((s) => s.type === 'retrieval') ? await retrievedOf(app, run.id) : [],
  };
  const services = {
    signal,
    embedder: specs.some((s) => s.type === 'similarity') ? scorerEmbedder(app.knowledge.defaultEmbedder()) : undefined,
    judge: judgeOf(app, run.id),
  };
  const scores: Record<string, RowScore> = {};
  for (const spec of specs) {
    try {
      const s = await score(spec, scored, services);
      scores[spec.name] = {
        score: s.score,
        passed: s.passed,
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.demo ? { demo: s.demo } : {}),
      };
      if (s.usage) costUsd = costUsd === null || s.usage.costUsd == null ? null : costUsd + s.usage.costUsd;
    } catch (e) {
      if (signal?.aborted) throw e;
      const message = (e as Error)?.message ?? String(e);
      scores[spec.name] = { score: 0, passed: false, reason: `the scorer failed: ${message}` };
    }
  }
  return { status: 'scored', outputs: run.outputs ?? null, scores, error: null, durationMs, costUsd };
}
