/**
 * What an API-key holder sees of a published run: its status, inputs, outputs, error, times and token usage. The
 * node trace (statuses, attempts, timings, usage, error codes) only where the workflow's publisher opted in
 * (`publicTrace`), and never a node's input or output: those hold the workflow's internals (prompts, retrieved
 * documents, upstream answers), which the endpoint's callers never see in the editor either. Artifacts in the
 * outputs (`{ artifactId, url }`) point at the published API's own URL for them, which the key authorises.
 */
import { withPublishedArtifactUrls } from '@/engine/artifacts/published-urls';
import type { NodeRunRecord, RunRecord } from '@/engine/store/types';
import { presentRun, usageOf } from '../workflows/workflows';

export function presentV1Run(run: RunRecord, snapshots: NodeRunRecord[], opts: { trace: boolean }) {
  const view = {
    id: run.id,
    workflowId: run.workflowId,
    versionId: run.versionId,
    status: run.status,
    inputs: run.inputs,
    // Files the run made: at URLs the key holder can fetch (GET /api/v1/runs/:runId/artifacts/:id).
    outputs: withPublishedArtifactUrls(run.outputs, run.id),
    error: run.error,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    usage: usageOf(snapshots),
    /** The offline demo model answered, not a real model (no model server is configured). */
    demo: snapshots.some((s) => s.usage?.demo === true),
  };
  if (!opts.trace) return view;
  // The editor's per-node view without the node's data: its input, output and error message stay internal.
  const nodes = presentRun(run, snapshots).nodes.map(({ input: _input, output: _output, error, ...node }) => ({
    ...node,
    errorCode: error?.code ?? null,
  }));
  return { ...view, nodes };
}
