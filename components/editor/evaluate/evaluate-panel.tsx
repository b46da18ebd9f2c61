'use client';
/**
 * The editor's Evaluate tab: this workflow's past evaluations on the left; on the right the form for a new one, an
 * evaluation as it runs and its results, or two compared. What is shown (and the form's draft) is remembered per
 * workflow while the page is open, so a look at a row's run in the trace tab comes back to the same place.
 */
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { InlineError } from '../publish/publish-ui';
import { ComparisonView } from './comparison-view';
import { endOutputs } from './end-outputs';
import { evaluateApi, type EvaluationView as Evaluation } from './evaluate-api';
import { EvaluationForm } from './evaluation-form';
import { EvaluationList } from './evaluation-list';
import { EvaluationView } from './evaluation-view';
import { initialDraft, type EvaluationDraft } from './scorer-drafts';

type Shown = { kind: 'form' } | { kind: 'evaluation'; id: string } | { kind: 'compare'; a: string; b: string };
type Remembered = { shown: Shown; draft: EvaluationDraft | null; picked: string[] };

const remembered = new Map<string, Remembered>();
const selectNodes = (s: EditorState) => s.nodes;

export function EvaluatePanel({ onOpenRun }: { onOpenRun: () => void }) {
  const { editor, runController } = useEditorContext();
  const workflowId = editor.state.workflowId;
  const nodes = useEditorState(selectNodes);
  const outputs = endOutputs(nodes);
  const [state, setState] = useState<Remembered>(
    () => remembered.get(workflowId) ?? { shown: { kind: 'form' }, draft: null, picked: [] },
  );
  const [list, setList] = useState<Evaluation[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const update = useCallback(
    (f: (s: Remembered) => Remembered) =>
      setState((s) => {
        const next = f(s);
        remembered.set(workflowId, next);
        return next;
      }),
    [workflowId],
  );
  const reload = useCallback(
    () =>
      evaluateApi.list(workflowId).then(
        (l) => {
          setList(l);
          setListError(null);
        },
        (e) => setListError(errorMessage(e)),
      ),
    [workflowId],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  const draft = state.draft ?? initialDraft(outputs);
  const { shown } = state;
  const show = (next: Shown) => update((s) => ({ ...s, shown: next }));

  return (
    <div className="flex h-full min-h-0" data-testid="evaluate-panel">
      <EvaluationList
        evaluations={list}
        openId={shown.kind === 'evaluation' ? shown.id : null}
        picked={state.picked}
        onOpen={(id) => show({ kind: 'evaluation', id })}
        onPick={(id, on) =>
          update((s) => ({ ...s, picked: on ? [...s.picked, id].slice(-2) : s.picked.filter((x) => x !== id) }))
        }
        onNew={() => show({ kind: 'form' })}
        onCompare={() => {
          // A is the earlier evaluation, B the later: the change reads as "what B did to A".
          const [a, b] = [...state.picked].sort((x, y) => createdAt(list, x) - createdAt(list, y));
          show({ kind: 'compare', a, b });
        }}
      />
      <div className="min-w-0 flex-1 overflow-y-auto">
        {listError && <InlineError error={listError} testId="evaluation-list-error" />}
        {shown.kind === 'form' && (
          <EvaluationForm
            draft={draft}
            outputs={outputs}
            onDraft={(f) => update((s) => ({ ...s, draft: f(s.draft ?? draft) }))}
            onStarted={(id) => {
              show({ kind: 'evaluation', id });
              void reload();
            }}
          />
        )}
        {shown.kind === 'evaluation' && (
          <EvaluationView
            key={shown.id}
            id={shown.id}
            onEnded={(ev) => {
              if (list?.find((x) => x.id === ev.id)?.status !== ev.status) void reload();
            }}
            onOpenRun={(runId) => {
              runController.open(runId);
              onOpenRun();
            }}
          />
        )}
        {shown.kind === 'compare' && <ComparisonView a={shown.a} b={shown.b} onClose={() => show({ kind: 'form' })} />}
      </div>
    </div>
  );
}

function createdAt(list: Evaluation[] | null, id: string): number {
  const ev = list?.find((e) => e.id === id);
  return ev ? new Date(ev.createdAt).getTime() : 0;
}
