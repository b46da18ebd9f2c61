'use client';
/** Every validation problem of the unsaved graph; clicking one selects (and centres) its node. */
import { useTranslations } from 'next-intl';
import { useEditorContext, useEditorState } from './editor-context';
import type { EditorState } from './editor-store';

const selectProblems = (s: EditorState) => s.problems;

export function ProblemsPanel() {
  const { editor } = useEditorContext();
  const t = useTranslations('editor.problems');
  const problems = useEditorState(selectProblems);
  if (!problems.length) {
    return (
      <div className="p-6 text-center text-sm text-emerald-700" data-testid="problems-empty">
        {t('empty')}
      </div>
    );
  }
  return (
    <ul className="h-full overflow-y-auto" data-testid="problems-panel">
      {problems.map((p) => {
        const node = p.nodeId ? editor.state.nodes.find((n) => n.id === p.nodeId) : undefined;
        return (
          <li key={p.key}>
            <button
              type="button"
              data-testid="problem-item"
              data-node-id={p.nodeId ?? ''}
              data-code={p.code}
              onClick={() => p.nodeId && editor.selectNode(p.nodeId)}
              disabled={!p.nodeId}
              className={
                'flex w-full items-start gap-3 border-b border-zinc-100 px-3 py-1.5 text-left ' +
                'text-[12px] hover:bg-red-50/50 disabled:cursor-default disabled:hover:bg-transparent'
              }
            >
              <span className="mt-0.5 h-2 w-2 shrink-0 rounded-full bg-red-500" />
              <span className="w-44 shrink-0 truncate font-medium text-zinc-800">
                {node ? node.data.label || node.id : (p.nodeId ?? t('workflow'))}
              </span>
              <span className="min-w-0 flex-1 text-zinc-700">{p.message}</span>
              <span className="shrink-0 font-mono text-[10px] text-zinc-400">{p.code}</span>
              <span className="hidden shrink-0 font-mono text-[10px] text-zinc-400 xl:inline">{p.path}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
