'use client';
/**
 * "A run of this workflow is waiting for an answer — Open": shown in the editor while runs of this workflow wait for
 * a person the signed-in user may answer for (GET /api/inbox?workflowId=…; a viewer never sees it). Open shows the
 * newest such run on the canvas, with its answer box; with more than one, a link lists them all on /runs. Hidden when
 * the only waiting run is the one already on the canvas.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useInbox } from '@/components/runs/inbox-api';
import { useWaitingText } from '@/components/runs/inbox-menu';
import { Button } from '@/components/ui/button';
import { useEditorContext, useRunState } from './editor-context';
import type { RunState } from './run/run-store';

const selectRunId = (s: RunState) => s.runId;
const selectStatus = (s: RunState) => s.status;

export function WaitingRunsNotice({ onOpen }: { onOpen: () => void }) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('runs.inbox.editor');
  const workflowId = editor.state.workflowId;
  const shownRun = useRunState(selectRunId);
  const status = useRunState(selectStatus);
  // A run on the canvas that pauses, or is answered, changes the list: load it again then.
  const inbox = useInbox({ workflowId, limit: 1, refreshKey: `${shownRun}:${status}` });
  const waitingText = useWaitingText();
  const newest = inbox?.runs[0];
  if (!inbox || !newest || (inbox.count === 1 && newest.id === shownRun)) return null;
  return (
    <div
      role="status"
      data-testid="waiting-runs-notice"
      className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span className="min-w-0 flex-1 truncate">
        {t('waiting', { count: inbox.count })} <span className="text-amber-800">{waitingText(newest)}</span>
      </span>
      {newest.id !== shownRun && (
        <Button
          size="sm"
          data-testid="waiting-runs-open"
          onClick={() => {
            runController.open(newest.id);
            onOpen();
          }}
        >
          {inbox.count > 1 ? t('openNewest') : t('open')}
        </Button>
      )}
      {inbox.count > 1 && (
        <Link
          href={`/runs?workflowId=${encodeURIComponent(workflowId)}&status=waiting`}
          className="text-[13px] font-medium text-indigo-600 hover:underline"
          data-testid="waiting-runs-all"
        >
          {t('all', { count: inbox.count })}
        </Link>
      )}
    </div>
  );
}
