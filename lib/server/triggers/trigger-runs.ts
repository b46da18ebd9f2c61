/**
 * Starting a run from a trigger: always the workflow's published version (an unpublished workflow is 409
 * NOT_PUBLISHED), under the same per-workflow concurrency cap as the published endpoint, recorded with the trigger's
 * kind and id so the run list can tell webhook, schedule and API runs apart.
 */
import { PaiError } from '@/engine/errors';
import type { PublishedWorkflow } from '@/engine/store/prisma/prisma-store';
import type { RunRecord, RunTriggerKind } from '@/engine/store/types';
import type { App } from '../app';
import { versionToRun } from '../published-runs';
import { waitForRunToSettle } from '../run-waiter';
import { httpError } from '../v1-http';
import { v1Settings } from '../v1-settings';

const SLOT_MAX_HOLD_MS = 6 * 3600_000;

export interface TriggerRunArgs {
  workflowId: string;
  /** The workflow, when the caller read it already (the webhook route's one read); else it is read here. */
  workflow?: PublishedWorkflow;
  inputs: Record<string, unknown>;
  trigger: { kind: RunTriggerKind; id: string };
  idempotencyKey?: string | null;
}

export async function startTriggeredRun(
  app: App,
  args: TriggerRunArgs,
): Promise<{ run: RunRecord; created: boolean; version: number }> {
  const wf = args.workflow ?? (await app.store.getWorkflow(args.workflowId));
  if (!wf) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${args.workflowId} not found`, { status: 404 });
  if (!wf.currentVersionId)
    throw new PaiError('NOT_PUBLISHED', 'the workflow is not published: triggers run its published version', {
      status: 409,
    });
  const version = await versionToRun(app, wf);
  const { slots } = v1Settings(app);
  const slot = slots.tryAcquire(wf.id);
  // A repeat (a webhook's redelivery, another replica's claim of the same tick) finds its run even when full.
  const existing =
    !slot && args.idempotencyKey ? await app.store.findRunByIdempotencyKey(wf.id, args.idempotencyKey) : null;
  if (existing) return { run: existing, created: false, version: version.version };
  if (!slot)
    throw httpError(
      'CONCURRENCY_LIMIT',
      `this workflow already has ${slots.max} runs in progress; retry shortly`,
      429,
      { 'retry-after': '1' },
    );
  try {
    const started = await app.runs.start({
      workflow: wf,
      versionId: version.id,
      graph: version.graph,
      engine: version.engine,
      inputs: args.inputs,
      idempotencyKey: args.idempotencyKey ?? null,
      trigger: args.trigger,
    });
    if (!started.created) slots.release(wf.id);
    else {
      const id = started.run.id;
      const settled = app.runs.isActive(id)
        ? app.runs.waitFor(id)
        : waitForRunToSettle(app, id, { timeoutMs: SLOT_MAX_HOLD_MS, pollMs: 2_000 });
      void settled.catch(() => {}).finally(() => slots.release(wf.id));
    }
    return { ...started, version: version.version };
  } catch (e) {
    slots.release(wf.id);
    throw e;
  }
}
