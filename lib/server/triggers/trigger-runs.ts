/**
 * Starting a run from a trigger: always the workflow's published version (an unpublished workflow is 409
 * NOT_PUBLISHED), under the same per-workflow concurrency cap as the published endpoint, recorded with the trigger's
 * kind and id so the run list can tell webhook, schedule and API runs apart.
 */
import { PaiError } from '@/engine/errors';
import { answerWith } from '@/lib/http/errors';
import type { PublishedWorkflow } from '@/engine/store/publishing';
import type { RunRecord, RunTriggerKind } from '@/engine/store/types';
import type { App } from '../app-types';
import { startPublishedRun, versionToRun } from '../publishing/published-runs';

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
  if (!wf) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${args.workflowId} not found`);
  if (!wf.currentVersionId)
    // The trigger exists, its workflow's state is what stands in the way: 409, not the 404 of an unknown endpoint.
    throw answerWith(
      new PaiError('NOT_PUBLISHED', 'the workflow is not published: triggers run its published version'),
      409,
    );
  const version = await versionToRun(app, wf);
  const started = await startPublishedRun(app, wf, version, {
    inputs: args.inputs,
    idempotencyKey: args.idempotencyKey ?? null,
    trigger: args.trigger,
  });
  return { ...started, version: version.version };
}
