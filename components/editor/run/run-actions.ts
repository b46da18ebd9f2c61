/** Run commands shared by the toolbar, the trace panel and the inspector. */
import { api, ApiError, errorMessage } from '@/components/api/client';
import { toast } from '@/components/ui/toast';
import type { RunController } from './run-controller';
import type { RunStore } from './run-store';

export async function startResume(
  runs: RunStore,
  controller: RunController,
  runId: string,
  fromNodeId?: string,
): Promise<boolean> {
  try {
    await api.resumeRun(runId, fromNodeId);
    if (runs.state.runId !== runId) controller.open(runId);
    else controller.follow();
    toast(
      'info',
      fromNodeId ? `Resuming from “${fromNodeId}”` : 'Resuming the run',
      'Succeeded nodes are reused; the rest runs again.',
    );
    return true;
  } catch (e) {
    toast('error', 'Resume failed', errorMessage(e));
    return false;
  }
}

export async function cancelRun(runId: string) {
  try {
    await api.cancelRun(runId);
    toast('info', 'Cancelling the run…');
  } catch (e) {
    toast('error', 'Cancel failed', errorMessage(e));
  }
}

export async function answerRun(runId: string, nodeId: string, answer: unknown): Promise<boolean> {
  try {
    await api.answerRun(runId, nodeId, answer);
    toast('success', 'Answer sent');
    return true;
  } catch (e) {
    toast('error', 'Answer not accepted', e instanceof ApiError ? `${e.message} (${e.code})` : errorMessage(e));
    return false;
  }
}
