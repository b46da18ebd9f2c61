'use client';
/** The dark top bar of the editor: name, save state, history and layout commands, Save and Run. */
import { useReactFlow } from '@xyflow/react';
import { Button } from '@/components/ui/button';
import { TopBar } from '@/components/ui/top-bar';
import { useEditorContext, useEditorState, useRunState } from './editor-context';
import type { EditorState } from './editor-store';
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

const SAVE_LABEL = {
  saved: 'All changes saved',
  dirty: 'Unsaved changes',
  saving: 'Saving…',
  error: 'Save failed',
  conflict: 'Changed elsewhere',
} as const;
const SAVE_DOT = {
  saved: 'bg-emerald-400',
  dirty: 'bg-amber-400',
  saving: 'bg-sky-400 animate-pulse',
  error: 'bg-red-500',
  conflict: 'bg-red-500',
} as const;

export function EditorToolbar({ onRun }: { onRun: () => void }) {
  const { editor } = useEditorContext();
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
              title="Undo (Ctrl+Z)"
              data-testid="undo"
            >
              Undo
            </Button>
            <Button
              variant="dark"
              size="sm"
              onClick={editor.redo}
              disabled={readOnly || !canRedo}
              title="Redo (Ctrl+Shift+Z)"
              data-testid="redo"
            >
              Redo
            </Button>
            <span className="mx-1 h-5 w-px bg-zinc-700" />
            <Button
              variant="dark"
              size="sm"
              onClick={() =>
                void editor
                  .autoLayout()
                  .then(() => requestAnimationFrame(() => void rf.fitView({ padding: 0.2, duration: 300 })))
              }
              disabled={readOnly}
              title="Arrange nodes in layers from the start node (long flows wrap into rows)"
              data-testid="auto-layout"
            >
              Auto-layout
            </Button>
            <Button
              variant="dark"
              size="sm"
              onClick={() => void rf.fitView({ padding: 0.2, duration: 300 })}
              title="Zoom to fit"
              data-testid="fit-view"
            >
              Fit
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
              {problemCount ? `${problemCount} problem${problemCount > 1 ? 's' : ''}` : 'Valid'}
            </span>
            <Button
              variant="dark"
              size="sm"
              onClick={() => void editor.save({ manual: true })}
              disabled={readOnly || status === 'saving' || status === 'conflict'}
              title="Save (Ctrl+S)"
              data-testid="save"
            >
              Save
            </Button>
            <TriggersButton disabled={readOnly || status === 'conflict'} />
            <PublishButton disabled={readOnly || status === 'conflict'} />
            <Button
              variant="run"
              size="sm"
              onClick={onRun}
              disabled={readOnly || runActive || status === 'conflict'}
              data-testid="run"
              title="Run the workflow"
            >
              ▶ Run
            </Button>
          </>
        }
      >
        <span className="text-zinc-600">/</span>
        <span className="truncate text-sm font-medium text-zinc-100" data-testid="editor-workflow-name">
          {name || 'Untitled'}
        </span>
        <span
          className="flex items-center gap-1.5 text-[11px] text-zinc-400"
          data-testid="save-status"
          data-status={status}
          title={message ?? undefined}
        >
          <span className={`h-1.5 w-1.5 rounded-full ${SAVE_DOT[status]}`} />
          {SAVE_LABEL[status]}
        </span>
        {readOnly && (
          <span
            data-testid="read-only-badge"
            className="rounded-full bg-amber-500/20 px-2 py-0.5 text-[11px] font-medium text-amber-200"
            title="Your role in this workspace is viewer: you can look at workflows and runs, not change them"
          >
            Read-only (viewer)
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
            {status === 'conflict' ? (
              <>
                <b>This workflow was changed elsewhere.</b> Your edits are kept here and in this browser; autosave is
                paused until you choose: keep yours, take theirs or merge.
              </>
            ) : (
              <>
                <b>Save failed:</b> {message}
              </>
            )}
          </span>
          {status === 'conflict' ? (
            <Button
              size="sm"
              variant="danger"
              onClick={() => void editor.conflict.open()}
              data-testid="resolve-conflict"
            >
              Resolve…
            </Button>
          ) : (
            <Button size="sm" onClick={() => void editor.save({ manual: true })}>
              Retry
            </Button>
          )}
        </div>
      )}
    </>
  );
}
