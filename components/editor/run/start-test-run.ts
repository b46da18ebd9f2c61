/**
 * Starting a test run from the editor, the same from the Run button and from the run form: unsaved edits are saved
 * first (a run executes the stored draft), and nodes marked with a breakpoint (`data.breakpoint`) pause the run
 * before they run. The Run button asks for inputs only when the start node declares some; with none there is nothing
 * to fill, so it starts at once.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useRef } from 'react';
import { ApiError, api, errorMessage } from '@/components/api/client';
import { toast } from '@/components/ui/toast';
import type { EditorStore } from '../editor-store';

export interface InputDecl {
  name: string;
  type?: 'string' | 'number' | 'boolean' | 'object' | 'array';
  required?: boolean;
  description?: string;
  default?: unknown;
}

/** The named inputs the start node declares (none without a start node). */
export function declaredInputs(editor: EditorStore): InputDecl[] {
  const start = editor.state.nodes.find((n) => n.type === 'start');
  const inputs = start?.data.config.inputs;
  return (Array.isArray(inputs) ? (inputs as InputDecl[]) : []).filter((d) => d?.name);
}

/** Saves, then starts the run; the run's id, or null when the save failed (the editor already says why). */
export async function startTestRun(editor: EditorStore, inputs: Record<string, unknown>): Promise<string | null> {
  if (!(await editor.save({ manual: true }))) return null;
  const breakpoints = editor.state.nodes.filter((n) => n.data.breakpoint === true).map((n) => n.id);
  return (await api.startRun(editor.state.workflowId, inputs, breakpoints)).runId;
}

/** The refusal of an invalid graph (422): the problems panel says what to fix. */
export const isInvalidGraph = (err: unknown) => err instanceof ApiError && err.status === 422;

/**
 * The Run button's action: the run form (`ask`) when the start node declares inputs, else the run at once. A second
 * click while that run is being saved and started is ignored.
 */
export function useRunButton(
  editor: EditorStore,
  on: { ask: () => void; started: (runId: string) => void; invalid: () => void },
): () => void {
  const t = useTranslations('run.dialog');
  const starting = useRef(false);
  const { ask, started, invalid } = on;
  return useCallback(() => {
    if (declaredInputs(editor).length) return ask();
    if (starting.current) return;
    starting.current = true;
    startTestRun(editor, {})
      .then(
        (runId) => {
          if (runId) started(runId);
        },
        (err) => {
          toast('error', t('startFailed'), errorMessage(err));
          if (isInvalidGraph(err)) invalid();
        },
      )
      .finally(() => {
        starting.current = false;
      });
  }, [editor, ask, started, invalid, t]);
}
