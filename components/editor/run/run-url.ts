/**
 * Runs in the editor's URL: `/workflows/<id>?run=<runId>` opens that workflow with the run shown (how the trace links
 * a sub-workflow node to its child run). The editor reads it once when it opens.
 */
import type { RunController } from './run-controller';
import type { ChildRunRef } from './run-state';

export function childRunHref(c: ChildRunRef): string {
  return `/workflows/${encodeURIComponent(c.workflowId)}?run=${encodeURIComponent(c.runId)}`;
}

/** The run named by `?run=`, if it looks like a run id. */
export function runIdInUrl(search = typeof window === 'undefined' ? '' : window.location.search): string | null {
  const runId = new URLSearchParams(search).get('run');
  return runId && /^[A-Za-z0-9_-]{1,100}$/.test(runId) ? runId : null;
}

/** Opens the run named by `?run=` (if any). */
export function openRunFromUrl(controller: RunController): boolean {
  const runId = runIdInUrl();
  if (runId) controller.open(runId);
  return !!runId;
}
