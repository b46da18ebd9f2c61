/**
 * The evaluations API's work (issue 36): start an evaluation of a workflow version (or its draft) on a dataset
 * version, read it with its summary and rows, list a workflow's, cancel one. The dataset's rows are copied into the
 * evaluation, the draft's graph too, so an evaluation stays reproducible whatever is edited afterwards. Everything is
 * scoped to the caller's workspace: another workspace's evaluation is a 404.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PaiError, WorkflowInvalidError } from '@/engine/errors';
import { validateGraph } from '@/engine/graph/validate';
import { withoutTestData } from '@/engine/runtime/pinned-data';
import type { EvaluationRecord, EvaluationRowRecord } from '@/engine/store/evaluations';
import type { WorkflowRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { getDatasetOr404 } from '../datasets/datasets';
import { decodeCursor, encodeCursor } from '../runs/analytics';
import type { CreateEvaluationBody } from './evaluation-schemas';
import { summarize } from './summary';

export const newEvaluationId = () => `ev_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

/** The evaluated graph and its engine: a published version's, or the draft's as it is now. */
async function versionToEvaluate(app: App, wf: WorkflowRecord, version: CreateEvaluationBody['version']) {
  if (version === 'draft') {
    const graph = withoutTestData(wf.graph);
    const v = validateGraph(graph, app.registry, wf.engine);
    if (!v.ok)
      throw new WorkflowInvalidError(v.errors[0].code, `the draft cannot run: ${v.errors[0].message}`, {
        path: `graph.${v.errors[0].path}`,
        details: { errors: v.errors },
      });
    return { version: null, versionId: null, graph, engine: wf.engine };
  }
  const found = await app.store.getVersionByNumber(wf.id, version);
  if (!found) throw new PaiError('VERSION_NOT_FOUND', `the workflow has no version ${version}`, { path: 'version' });
  return { version: found.version, versionId: found.id, graph: null, engine: found.engine };
}

export async function createEvaluation(
  app: App,
  caller: Caller,
  wf: WorkflowRecord,
  body: CreateEvaluationBody,
  purpose: EvaluationRecord['purpose'] = 'manual',
): Promise<EvaluationRecord> {
  const dataset = await getDatasetOr404(app, caller, body.datasetId, body.datasetVersion).catch((e) => {
    throw e instanceof PaiError ? new PaiError(e.code, e.message, { path: 'datasetId' }) : e;
  });
  if (!dataset.rows.length)
    throw new PaiError('VALIDATION_ERROR', `dataset "${dataset.name}" has no rows to evaluate`, { path: 'datasetId' });
  // A judge's credential must exist in the workspace now, not fail every row later.
  for (const [i, s] of body.scorers.entries())
    if (s.type === 'llm_judge' && s.credentialId)
      await app.credentials.resolveInWorkspace(caller.workspaceId, s.credentialId, `scorers[${i}].credentialId`);
  const target = await versionToEvaluate(app, wf, body.version);
  const ev = await app.stores.evaluations.create({
    id: newEvaluationId(),
    workspaceId: caller.workspaceId,
    workflowId: wf.id,
    ...target,
    datasetId: dataset.id,
    datasetVersion: dataset.version,
    datasetName: dataset.name,
    scorers: body.scorers as EvaluationRecord['scorers'],
    concurrency: body.concurrency,
    purpose,
    createdBy: caller.user.id,
    rows: dataset.rows,
  });
  app.evaluations.drive(ev);
  return ev;
}

export async function getEvaluationOr404(app: App, caller: Pick<Caller, 'workspaceId'>, id: string) {
  const ev = await app.stores.evaluations.get(caller.workspaceId, id);
  if (!ev) throw new PaiError('EVALUATION_NOT_FOUND', `evaluation ${id} not found`);
  return ev;
}

export function presentRow(r: EvaluationRowRecord) {
  return {
    index: r.index,
    runId: r.runId,
    status: r.status,
    inputs: r.inputs,
    outputs: r.outputs,
    expected: r.expected ?? null,
    tags: r.tags,
    scores: r.scores ?? {},
    error: r.error,
    durationMs: r.durationMs,
    costUsd: r.costUsd,
  };
}

export function presentEvaluation(ev: EvaluationRecord, rows: EvaluationRowRecord[], withRows = true) {
  return {
    id: ev.id,
    status: ev.status,
    workflowId: ev.workflowId,
    version: ev.version ?? ('draft' as const),
    datasetId: ev.datasetId,
    datasetVersion: ev.datasetVersion,
    datasetName: ev.datasetName,
    scorers: ev.scorers,
    concurrency: ev.concurrency,
    purpose: ev.purpose,
    error: ev.error,
    progress: ev.progress,
    summary: summarize(ev.scorers, rows),
    createdAt: ev.createdAt.toISOString(),
    startedAt: ev.startedAt?.toISOString() ?? null,
    finishedAt: ev.finishedAt?.toISOString() ?? null,
    ...(withRows ? { rows: rows.map(presentRow) } : {}),
  };
}

export async function readEvaluation(app: App, ev: EvaluationRecord) {
  return presentEvaluation(ev, await app.stores.evaluations.rows(ev.id));
}

const LIST_MAX = 100;
const LIST_DEFAULT = 50;

/** The query of GET /api/workflows/:id/evaluations: a page size and the cursor of the page before. */
const listQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= LIST_MAX, `must be between 1 and ${LIST_MAX}`)
    .optional(),
  cursor: z.string().max(400).optional(),
});
/**
 * One page of a workflow's evaluations, newest first, with their summaries (no rows), and the cursor of the next
 * page (null on the last).
 */
export async function listEvaluations(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  workflowId: string,
  query: URLSearchParams,
) {
  const parsed = listQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys')
      throw new PaiError('UNKNOWN_KEY', `unknown query parameter "${issue.keys[0]}": give limit or cursor`, {
        path: `query.${issue.keys[0]}`,
      });
    const name = String(issue.path[0] ?? '');
    throw new PaiError('VALIDATION_ERROR', `${name} ${issue.message}`.trim(), { path: `query.${name}` });
  }
  const { limit = LIST_DEFAULT, cursor } = parsed.data;
  const after = cursor ? decodeCursor(cursor) : undefined;
  const page = await app.stores.evaluations.list(
    caller.workspaceId,
    workflowId,
    limit + 1,
    after && { createdAt: new Date(after.createdAt), id: after.id },
  );
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return {
    evaluations: await Promise.all(
      shown.map(async (ev) => presentEvaluation(ev, await app.stores.evaluations.rows(ev.id), false)),
    ),
    nextCursor:
      page.length > limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null,
  };
}
