'use client';
/**
 * The editor page: loads the node types and the workflow, then lays out palette, canvas, inspector and bottom panel.
 */
// Before any schema parses in the browser: no eval under the pages' CSP.
import '@/components/lib/zod-without-eval';
import { ReactFlowProvider } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { canEdit } from '@/components/api/auth-api';
import { api, errorMessage } from '@/components/api/client';
import type { NodeTypeInfo, Workflow } from '@/components/api/types';
import { useAuth } from '@/components/auth/auth-gate';
import { FirstCompileNote } from '@/components/ui/first-compile-note';
import { TopBar } from '@/components/ui/top-bar';
import { BottomPanel, type BottomTab } from './bottom-panel';
import { Canvas } from './canvas/canvas';
import { Palette } from './canvas/palette';
import { ConflictDialog } from './conflict-dialog';
import { DraftBanner } from './draft-banner';
import { EditorContext, type EditorContextValue } from './editor-context';
import { EditorStore } from './editor-store';
import { EditorToolbar } from './editor-toolbar';
import { Inspector } from './inspector/inspector';
import { setLayout, useLayoutPrefs } from './layout-prefs';
import { draftKey, LocalDraft } from './local-draft';
import { RunController } from './run/run-controller';
import { openRunFromUrl, runIdInUrl } from './run/run-url';
import { RunDialog } from './run/run-dialog';
import { useRunButton } from './run/start-test-run';
import { RunStore } from './run/run-store';
import { inTextField, useEditorShortcuts } from './use-editor-shortcuts';
import { WaitingRunsNotice } from './waiting-runs-notice';

declare global {
  interface Window {
    /** Read-only handles for the e2e suite and the benchmark. */
    __paiflow?: {
      editor: EditorStore;
      runs: RunStore;
      runController: RunController;
      graph: () => unknown;
      readyAt: number;
    };
  }
}

export function Editor({ workflowId }: { workflowId: string }) {
  const [loaded, setLoaded] = useState<{ types: NodeTypeInfo[]; wf: Workflow } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const t = useTranslations('editor');

  useEffect(() => {
    let cancelled = false;
    Promise.all([api.nodeTypes(), api.getWorkflow(workflowId)])
      .then(([types, wf]) => {
        if (!cancelled) setLoaded({ types, wf });
      })
      .catch((e) => {
        if (!cancelled) setError(errorMessage(e));
      });
    return () => {
      cancelled = true;
    };
  }, [workflowId]);

  if (error) {
    return (
      <div className="flex h-screen flex-col">
        <TopBar />
        <div
          className="m-8 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800"
          role="alert"
          data-testid="editor-error"
        >
          {t('loadError', { error })}
        </div>
      </div>
    );
  }
  if (!loaded) {
    return (
      <div className="flex h-screen flex-col">
        <TopBar />
        <div className="grid flex-1 place-items-center text-sm text-zinc-500">
          <div className="flex flex-col items-center">
            {t('loading')}
            <FirstCompileNote />
          </div>
        </div>
      </div>
    );
  }
  return <LoadedEditor key={loaded.wf.id} types={loaded.types} wf={loaded.wf} />;
}

function LoadedEditor({ types, wf }: { types: NodeTypeInfo[]; wf: Workflow }) {
  // A viewer may look but not change: the store commits no edit and never saves, the canvas and forms are locked.
  const auth = useAuth();
  const readOnly = !!auth && !canEdit(auth.role);
  const ctx = useMemo<EditorContextValue>(() => {
    const editor = new EditorStore(types, wf, { readOnly });
    const runs = new RunStore();
    const runController = new RunController(runs);
    return { editor, runs, runController, nodeTypes: types };
  }, [types, wf, readOnly]);
  // Unsaved edits an earlier page left in local storage come back before the first paint (local-draft.ts).
  const userId = auth?.user?.id;
  const draft = useMemo(() => {
    const d = new LocalDraft(ctx.editor, draftKey(userId, wf.id));
    d.restore(wf);
    return d;
  }, [ctx, wf, userId]);
  useEffect(() => draft.start(), [draft]);
  // Mounted only in the browser (after the workflow loaded), so the URL can be read here.
  const [tab, setTab] = useState<BottomTab>(() => (runIdInUrl() ? 'trace' : 'problems'));
  const [runOpen, setRunOpen] = useState(false);
  const ask = useCallback(() => setRunOpen(true), []);
  const started = useCallback(
    (runId: string) => {
      setRunOpen(false);
      ctx.runController.open(runId);
      setTab('trace');
    },
    [ctx],
  );
  const invalid = useCallback(() => setTab('problems'), []);
  // With no inputs to ask for, Run starts at once; else it opens the run form.
  const onRun = useRunButton(ctx.editor, { ask, started, invalid });

  useEffect(() => {
    const { editor, runs, runController } = ctx;
    editor.activate();
    openRunFromUrl(runController);
    window.__paiflow = { editor, runs, runController, graph: () => editor.graph(), readyAt: performance.now() };
    const beforeUnload = (e: BeforeUnloadEvent) => {
      const s = editor.state;
      if (s.version !== s.savedVersion && s.saveStatus !== 'conflict') e.preventDefault();
    };
    // Closing the tab within autosave's pause used to lose the last edits on the server: send them on the way out.
    const pageHide = () => editor.saveOnLeave();
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
      runController.close();
      editor.dispose();
      if (window.__paiflow?.editor === editor) delete window.__paiflow;
    };
  }, [ctx]);

  useEditorShortcuts(ctx.editor);
  const t = useTranslations('editor.focus');
  const layout = useLayoutPrefs();
  const showPalette = !ctx.editor.readOnly && layout.paletteOpen && !layout.focus;
  const showInspector = layout.inspectorOpen && !layout.focus;
  /** F on the canvas (not in a field, no modifier) toggles focus mode; Escape leaves it. */
  const onCanvasKey = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || inTextField(e.target)) return;
    if (e.key === 'f' || e.key === 'F' || (e.key === 'Escape' && layout.focus)) {
      if (e.key === 'Escape') setLayout({ focus: false });
      else setLayout((p) => ({ focus: !p.focus }));
    }
  };

  return (
    <EditorContext.Provider value={ctx}>
      <ReactFlowProvider>
        <div className="flex h-screen flex-col overflow-hidden" data-testid="editor">
          <EditorToolbar onRun={onRun} />
          <DraftBanner draft={draft} />
          <WaitingRunsNotice onOpen={() => setTab('trace')} />
          <div className="flex min-h-0 flex-1">
            {showPalette && <Palette />}
            <div className="flex min-w-0 flex-1 flex-col">
              <div className="relative min-h-0 flex-1 bg-zinc-100" onKeyDown={onCanvasKey}>
                <Canvas />
                {!ctx.editor.readOnly && !layout.focus && (
                  <EdgeToggle side="left" open={layout.paletteOpen} what="palette" />
                )}
                {!layout.focus && <EdgeToggle side="right" open={layout.inspectorOpen} what="inspector" />}
                <button
                  type="button"
                  onClick={() => setLayout((p) => ({ focus: !p.focus }))}
                  aria-pressed={layout.focus}
                  aria-label={layout.focus ? t('exitLabel') : t('enterLabel')}
                  title={layout.focus ? t('exitTitle') : t('enterLabel')}
                  data-testid="focus-mode"
                  className={
                    'absolute left-7 top-2 z-10 h-7 rounded-md border border-zinc-300 bg-white px-2 text-[12px] ' +
                    'font-medium text-zinc-700 shadow-xs hover:bg-zinc-50 focus:outline-none ' +
                    'focus-visible:ring-2 focus-visible:ring-indigo-400'
                  }
                >
                  {layout.focus ? t('exit') : t('enter')}
                </button>
              </div>
              {!layout.focus && <BottomPanel tab={tab} onTab={setTab} />}
            </div>
            {showInspector && <Inspector />}
          </div>
        </div>
        <ConflictDialog />
        {runOpen && <RunDialog onClose={() => setRunOpen(false)} onInvalid={invalid} onStarted={started} />}
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}

/**
 * The collapse / expand tab of the palette or the inspector, floating on the canvas edge next to it so it takes no
 * width from the canvas.
 */
function EdgeToggle({ side, open, what }: { side: 'left' | 'right'; open: boolean; what: 'palette' | 'inspector' }) {
  const t = useTranslations('editor.edgeToggle');
  const key = what === 'palette' ? 'paletteOpen' : 'inspectorOpen';
  const text = open ? t(`collapse.${what}`) : t(`expand.${what}`);
  // The arrow points the way the panel will move: a left palette closes leftwards, a right inspector rightwards.
  const arrow = (side === 'left') === open ? '‹' : '›';
  return (
    <button
      type="button"
      onClick={() => setLayout((p) => ({ [key]: !p[key] }))}
      aria-expanded={open}
      aria-label={text}
      title={text}
      data-testid={`toggle-${what}`}
      className={
        'absolute z-10 grid h-7 w-5 place-items-center border border-zinc-300 bg-white text-sm leading-none ' +
        'text-zinc-500 shadow-xs hover:bg-zinc-50 hover:text-zinc-800 focus:outline-none ' +
        'focus-visible:ring-2 focus-visible:ring-indigo-400 ' +
        (side === 'left' ? 'left-0 top-2 rounded-r-md border-l-0' : 'right-0 top-8 rounded-l-md border-r-0')
      }
    >
      {arrow}
    </button>
  );
}
