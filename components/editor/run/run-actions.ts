/** Run commands shared by the toolbar, the trace panel and the inspector. */
import { api, ApiError, errorMessage } from '@/components/api/client';
import { tr } from '@/components/lib/i18n';
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
      fromNodeId ? tr('run.actions.resumingFrom', { node: fromNodeId }) : tr('run.actions.resuming'),
      tr('run.actions.resumingDetail'),
    );
    return true;
  } catch (e) {
    toast('error', tr('run.actions.resumeFailed'), errorMessage(e));
    return false;
  }
}

export async function cancelRun(runId: string) {
  try {
    await api.cancelRun(runId);
    toast('info', tr('run.actions.cancelling'));
  } catch (e) {
    toast('error', tr('run.actions.cancelFailed'), errorMessage(e));
  }
}

export async function answerRun(runId: string, nodeId: string, answer: unknown): Promise<boolean> {
  try {
    await api.answerRun(runId, nodeId, answer);
    toast('success', tr('run.actions.answerSent'));
    return true;
  } catch (e) {
    toast(
      'error',
      tr('run.actions.answerRefused'),
      e instanceof ApiError ? `${e.message} (${e.code})` : errorMessage(e),
    );
    return false;
  }
}
