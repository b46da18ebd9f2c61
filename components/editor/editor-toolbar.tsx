'use client';
/** The dark top bar of the editor: name, save state, history and layout commands, Save and Run. */
import { useReactFlow } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { TopBar } from '@/components/ui/top-bar';
import { useEditorContext, useEditorState, useRunState } from './editor-context';
import type { EditorState } from './editor-store';
import { FIT_VIEW_OPTIONS } from './layout-prefs';
import { PublishButton } from './publish/publish-button';
import { TriggersButton } from './triggers/triggers-button';
import type { RunState } from './run/run-store';

const selectName = (s: EditorState) => s.name;
const selectStatus = (s: EditorState) => s.saveStatus;
const selectMessage = (s: EditorState) => s.saveMessage;
const selectUndo = (s: EditorState) => s.canUndo;
const selectRedo = (s: EditorState) => s.canRedo;
const selectProblemCount = (s: EditorState) => s.problems.length;
const selectRunActive = (s: RunState) => s.status === 'running' || s.status === 'queued';

const SAVE_DOT = {
  saved: 'bg-emerald-400',
  dirty: 'bg-amber-400',
  saving: 'bg-sky-400 animate-pulse',
  error: 'bg-red-500',
  conflict: 'bg-red-500',
} as const;

export function EditorToolbar({ onRun }: { onRun: () => void }) {
  const { editor } = useEditorContext();
  const t = useTranslations('editor.toolbar');
  const tSave = useTranslations('editor.saveStatus');
  const rf = useReactFlow();
  const name = useEditorState(selectName);
  const status = useEditorState(selectStatus);
  const message = useEditorState(selectMessage);
  const canUndo = useEditorState(selectUndo);
  const canRedo = useEditorState(selectRedo);
  const problemCount = useEditorState(selectProblemCount);
  const runActive = useRunState(selectRunActive);
  // A viewer may look but not change (see EditorStore.readOnly): the server refuses their writes anyway.
  const readOnly = editor.readOnly;

  return (
    <>
      <TopBar
        right={
          <>
            <Button
              variant="dark"
              size="sm"
              onClick={editor.undo}
              disabled={readOnly || !canUndo}
              title={t('undoTitle')}
              data-testid="undo"
            >
              {t('undo')}
            </Button>
            <Button
              variant="dark"
              size="sm"
              onClick={editor.redo}
              disabled={readOnly || !canRedo}
              title={t('redoTitle')}
              data-testid="redo"
            >
              {t('redo')}
            </Button>
            <span className="mx-1 h-5 w-px bg-zinc-700" />
            <Button
              variant="dark"
              size="sm"
              onClick={() =>
                void editor
                  .autoLayout()
                  .then(() => requestAnimationFrame(() => void rf.fitView({ ...FIT_VIEW_OPTIONS, duration: 300 })))
              }
              disabled={readOnly}
              title={t('autoLayoutTitle')}
              data-testid="auto-layout"
            >
              {t('autoLayout')}
            </Button>
            <Button
              variant="dark"
              size="sm"
              onClick={() => void rf.fitView({ ...FIT_VIEW_OPTIONS, duration: 300 })}
              title={t('fitTitle')}
              data-testid="fit-view"
            >
              {t('fit')}
            </Button>
            <span className="mx-1 h-5 w-px bg-zinc-700" />
            <span
              data-testid="problem-count"
              data-count={problemCount}
              className={
                'rounded-full px-2 py-0.5 text-[11px] font-medium ' +
                (problemCount ? 'bg-red-500/20 text-red-300' : 'bg-emerald-500/15 text-emerald-300')
              }
            >
              {problemCount ? t('problems', { count: problemCount }) : t('valid')}
            </span>
            <Button
              variant="dark"
              size="sm"
              onClick={() => void editor.save({ manual: true })}
              disabled={readOnly || status === 'saving' || status === 'conflict'}
              title={t('saveTitle')}
              data-testid="save"
            >
              {t('save')}
            </Button>
            <TriggersButton disabled={readOnly || status === 'conflict'} />
            <PublishButton disabled={readOnly || status === 'conflict'} />
            <Button
              variant="run"
              size="sm"
              onClick={onRun}
              disabled={readOnly || runActive || status === 'conflict'}
              data-testid="run"
              title={t('runTitle')}
            >
              {t('run')}
            </Button>
          </>
        }
      >
        <span className="text-zinc-600">/</span>
        <span className="truncate text-sm font-medium text-zinc-100" data-testid="editor-workflow-name">
          {name || t('untitled')}
        </span>
        <span
          className="flex items-center gap-1.5 text-[11px] text-zinc-400"
          data-testid="save-status"
          data-status={status}
          title={message ?? undefined}
        >
          <span className={`h-1.5 w-1.5 rounded-full ${SAVE_DOT[status]}`} />
          {tSave(status)}
        </span>
        {readOnly && (
          <span
            data-testid="read-only-badge"
            className="rounded-full bg-amber-500/20 px-2 py-0.5 text-[11px] font-medium text-amber-200"
            title={t('readOnlyTitle')}
          >
            {t('readOnly')}
          </span>
        )}
      </TopBar>
      {(status === 'conflict' || status === 'error') && (
        <div
          role="alert"
          data-testid={status === 'conflict' ? 'conflict-banner' : 'save-error-banner'}
          className="flex items-center gap-3 border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          <span className="flex-1">
            {status === 'conflict'
              ? t.rich('conflictBanner', { b: (c) => <b>{c}</b> })
              : t.rich('saveFailed', { b: (c) => <b>{c}</b>, message: message ?? '' })}
          </span>
          {status === 'conflict' ? (
            <Button
              size="sm"
              variant="danger"
              onClick={() => void editor.conflict.open()}
              data-testid="resolve-conflict"
            >
              {t('resolve')}
            </Button>
          ) : (
            <Button size="sm" onClick={() => void editor.save({ manual: true })}>
              {t('retry')}
            </Button>
          )}
        </div>
      )}
    </>
  );
}
