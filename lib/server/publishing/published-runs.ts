/**
 * Runs a published version for POST /api/v1/workflows/:slug/run. The run is an ordinary run of the version's graph
 * (versionId set, so a resume replays that version, not the draft); the mode only decides how the caller waits:
 * sync holds the request until the run ends or SYNC_TIMEOUT_MS passes (then 202 + statusUrl, never 504), stream
 * answers with the trace as SSE, async answers 202 at once.
 */
import type { InputRef } from '@/engine/runtime/input-refs';
import { z } from 'zod';
import { withPublishedArtifactUrls } from '@/engine/artifacts/published-urls';
import { PaiError } from '@/engine/errors';
import { httpError } from '@/lib/http/errors';
import { checkRunInputs, startConfigSchema } from '@/engine/nodes/start';
import type { ApiKeyRecord, PublishedWorkflow } from '@/engine/store/publishing';
import type { RunRecord, RunTriggerKind, WorkflowVersionRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { canonicalJson } from '@/engine/graph/canonical-json';
import { checkCallbackUrl, deliverOnCompletion } from './run-callback';
import { waitForRunToSettle } from '../runs/run-waiter';
import { requireLiveEvents, runEventStream } from '../runs/sse';
import { v1Settings } from './v1-settings';

export const RUN_MODES = ['sync', 'stream', 'async'] as const;

export const runBodySchema = z.strictObject({
  inputs: z.record(z.string(), z.unknown()).default({}),
  mode: z.enum(RUN_MODES).default('sync'),
  version: z.number().int().min(1).max(2_147_483_647).optional(),
  callbackUrl: z.string().max(2048).optional(),
});
export type RunBody = z.infer<typeof runBodySchema>;

const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const SLOT_MAX_HOLD_MS = 6 * 3600_000;

/** Versions are immutable and their ids unique, so the current one need not be re-read on every request. */
const versionCache = new Map<string, WorkflowVersionRecord>();
const VERSION_CACHE_MAX = 500;

/** Headers of an answer about a started (or, for a repeated Idempotency-Key, found) run. */
export const runHeaders = (runId: string, statusUrl: string, created: boolean): Record<string, string> => ({
  'x-run-id': runId,
  location: statusUrl,
  ...(created ? {} : { 'idempotent-replayed': 'true' }),
});

export const runUrls = (origin: string, runId: string) => ({
  statusUrl: `${origin}/api/v1/runs/${runId}`,
  eventsUrl: `${origin}/api/v1/runs/${runId}/events`,
});

/** The version a request runs: the given number, else the current one. Unpublished → 404. */
export async function versionToRun(
  app: App,
  wf: PublishedWorkflow,
  requested?: number,
): Promise<WorkflowVersionRecord> {
  const notPublished = () => new PaiError('NOT_PUBLISHED', `no published workflow "${wf.slug}"`);
  if (!wf.currentVersionId) throw notPublished();
  if (requested !== undefined) {
    const v = await app.store.getVersionByNumber(wf.id, requested);
    if (!v)
      throw new PaiError('VERSION_NOT_FOUND', `version ${requested} of "${wf.slug}" does not exist`, {
        path: 'version',
      });
    return v;
  }
  const v = versionCache.get(wf.currentVersionId) ?? (await app.store.getVersion(wf.currentVersionId));
  if (!v) throw notPublished();
  if (versionCache.size >= VERSION_CACHE_MAX) versionCache.delete(versionCache.keys().next().value!);
  versionCache.set(v.id, v);
  return v;
}

export function idempotencyKeyOf(req: Request): string | null {
  const k = req.headers.get('idempotency-key');
  if (k === null) return null;
  if (!IDEMPOTENCY_KEY_RE.test(k)) {
    throw new PaiError('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1–255 visible ASCII characters', {
      path: 'headers.Idempotency-Key',
    });
  }
  return k;
}

/** A repeat with the same Idempotency-Key must be the same request: other inputs → 409, not someone else's run. */
export function checkSameInputs(run: RunRecord, inputs: Record<string, unknown>) {
  const start = run.graph.nodes.find((n) => n.type === 'start');
  const { value } = checkRunInputs(startConfigSchema.parse(start?.data.config ?? {}), inputs);
  if (canonicalJson(value) !== canonicalJson(run.inputs)) {
    throw new PaiError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for a request with other inputs', {
      path: 'headers.Idempotency-Key',
    });
  }
}

/** What a run of a published version is started with, whoever starts it (an API key, a trigger, an MCP client). */
export interface PublishedRunStart {
  inputs: Record<string, unknown>;
  /** Inputs the run keeps by reference (RunManager.start): a chat turn's history. */
  refs?: Record<string, InputRef>;
  idempotencyKey: string | null;
  apiKeyId?: string | null;
  /** What started it besides a key, recorded on the run (webhook, schedule, the MCP server's tool calls). */
  trigger?: { kind: RunTriggerKind; id: string | null };
}

/**
 * Starts (or, for a repeated idempotency key, finds) a run of `version`, holding one of the workflow's concurrency
 * slots while it executes (429 CONCURRENCY_LIMIT when none is free; a repeat still finds its run then).
 */
export async function startPublishedRun(
  app: App,
  wf: PublishedWorkflow,
  version: WorkflowVersionRecord,
  start: PublishedRunStart,
): Promise<{ run: RunRecord; created: boolean }> {
  const { slots } = v1Settings(app);
  const slot = slots.tryAcquire(wf.id);
  if (!slot) {
    const existing = start.idempotencyKey ? await app.store.findRunByIdempotencyKey(wf.id, start.idempotencyKey) : null;
    if (existing) return { run: existing, created: false };
    throw httpError(
      'CONCURRENCY_LIMIT',
      `this workflow already has ${slots.max} runs in progress; retry shortly`,
      429,
      { 'retry-after': '1' },
    );
  }
  try {
    const started = await app.runs.start({
      workflow: wf,
      versionId: version.id,
      graph: version.graph,
      engine: version.engine,
      inputs: start.inputs,
      ...(start.refs ? { refs: start.refs } : {}),
      idempotencyKey: start.idempotencyKey,
      apiKeyId: start.apiKeyId ?? null,
      ...(start.trigger ? { trigger: start.trigger } : {}),
    });
    if (!started.created) slots.release(wf.id);
    else {
      // Held until the run settles, wherever it executes (in queue mode: a worker). Bounded, so a lost event cannot
      // leak it.
      const id = started.run.id;
      const settled = app.runs.isActive(id)
        ? app.runs.waitFor(id)
        : waitForRunToSettle(app, id, { timeoutMs: SLOT_MAX_HOLD_MS, pollMs: 2_000 });
      void settled.catch(() => {}).finally(() => slots.release(wf.id));
    }
    return started;
  } catch (e) {
    slots.release(wf.id);
    throw e;
  }
}

/** startPublishedRun for a caller with an API key (the v1 run endpoint, chat completions, MCP tool calls). */
export function startRun(
  app: App,
  wf: PublishedWorkflow,
  version: WorkflowVersionRecord,
  key: ApiKeyRecord,
  body: RunBody,
  idempotencyKey: string | null,
  trigger?: { kind: RunTriggerKind; id: string | null },
) {
  return startPublishedRun(app, wf, version, { inputs: body.inputs, idempotencyKey, apiKeyId: key.id, trigger });
}

export async function runPublished(
  app: App,
  req: Request,
  origin: string,
  wf: PublishedWorkflow,
  key: ApiKeyRecord,
  body: RunBody,
): Promise<Response> {
  const idempotencyKey = idempotencyKeyOf(req);
  const version = await versionToRun(app, wf, body.version);
  if (body.callbackUrl !== undefined) await checkCallbackUrl(app, body.callbackUrl);
  // Checked before the run starts: a stream that cannot be delivered must not leave a run behind that nobody follows.
  if (body.mode === 'stream') await requireLiveEvents(app);
  const { run, created } = await startRun(app, wf, version, key, body, idempotencyKey);
  if (!created) checkSameInputs(run, body.inputs);
  else if (body.callbackUrl !== undefined)
    deliverOnCompletion(app, run.id, body.callbackUrl, { slug: wf.slug!, version: version.version });

  const urls = runUrls(origin, run.id);
  const headers = runHeaders(run.id, urls.statusUrl, created);
  const runVersion =
    run.versionId === version.id
      ? version.version
      : ((await app.store.getVersion(run.versionId ?? ''))?.version ?? null);

  if (body.mode === 'stream') {
    const res = runEventStream(app, run.id, 0, req.signal);
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  }
  if (body.mode === 'async')
    return Response.json({ runId: run.id, status: run.status, version: runVersion, ...urls }, { status: 202, headers });

  const done =
    (await waitForRunToSettle(app, run.id, { timeoutMs: v1Settings(app).syncTimeoutMs, signal: req.signal })) ?? run;
  if (!TERMINAL.has(done.status))
    return Response.json(
      { runId: done.id, status: done.status, version: runVersion, ...urls },
      { status: 202, headers },
    );
  return Response.json(
    {
      runId: done.id,
      status: done.status,
      version: runVersion,
      outputs: withPublishedArtifactUrls(done.outputs, done.id),
      ...(done.error ? { error: done.error } : {}),
    },
    { headers },
  );
}

/**
 * A run the key may read: a published run (one of a published version, not an editor draft run) of its workflow.
 * Others are 404, indistinguishable from a run that does not exist.
 */
export async function runOfKey(app: App, key: ApiKeyRecord, runId: string): Promise<RunRecord> {
  const run = await app.store.getRun(runId);
  if (!run || run.workflowId !== key.workflowId || run.versionId === null)
    throw new PaiError('RUN_NOT_FOUND', `run ${runId} not found`);
  return run;
}
