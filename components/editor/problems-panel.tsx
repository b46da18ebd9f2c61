'use client';
/**
 * Every validation problem of the unsaved graph, then its warnings (what runs but may not do what is meant: a path
 * that reaches no End node); clicking one selects (and centres) its node.
 */
import { useTranslations } from 'next-intl';
import { useEditorContext, useEditorState } from './editor-context';
import type { ProblemView } from './editor-state';
import type { EditorState } from './editor-store';

const selectProblems = (s: EditorState) => s.problems;
const selectWarnings = (s: EditorState) => s.warnings;

export function ProblemsPanel() {
  const t = useTranslations('editor.problems');
  const problems = useEditorState(selectProblems);
  const warnings = useEditorState(selectWarnings);
  if (!problems.length && !warnings.length) {
    return (
      <div className="p-6 text-center text-sm text-emerald-700" data-testid="problems-empty">
        {t('empty')}
      </div>
    );
  }
  return (
    <div className="h-full overflow-y-auto">
      {problems.length > 0 ? (
        <ul data-testid="problems-panel">
          {problems.map((p) => (
            <ProblemRow key={p.key} problem={p} testId="problem-item" dot="bg-red-500" hover="hover:bg-red-50/50" />
          ))}
        </ul>
      ) : (
        <div className="px-3 py-2 text-[12px] text-emerald-700" data-testid="problems-only-warnings">
          {t('onlyWarnings')}
        </div>
      )}
      {warnings.length > 0 && (
        <section data-testid="problems-warnings">
          <h3 className="border-b border-zinc-100 bg-amber-50/60 px-3 py-1 text-[11px] font-semibold text-amber-800">
            {t('warningsTitle')}
          </h3>
          <ul>
            {warnings.map((p) => (
              <ProblemRow
                key={p.key}
                problem={p}
                testId="problem-warning"
                dot="bg-amber-500"
                hover="hover:bg-amber-50/50"
              />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function ProblemRow({
  problem: p,
  testId,
  dot,
  hover,
}: {
  problem: ProblemView;
  testId: string;
  dot: string;
  hover: string;
}) {
  const { editor } = useEditorContext();
  const t = useTranslations('editor.problems');
  const node = p.nodeId ? editor.state.nodes.find((n) => n.id === p.nodeId) : undefined;
  return (
    <li>
      <button
        type="button"
        data-testid={testId}
        data-node-id={p.nodeId ?? ''}
        data-code={p.code}
        onClick={() => p.nodeId && editor.selectNode(p.nodeId)}
        disabled={!p.nodeId}
        className={
          'flex w-full items-start gap-3 border-b border-zinc-100 px-3 py-1.5 text-left ' +
          `text-[12px] ${hover} disabled:cursor-default disabled:hover:bg-transparent`
        }
      >
        <span className={`mt-0.5 h-2 w-2 shrink-0 rounded-full ${dot}`} />
        <span className="w-44 shrink-0 truncate font-medium text-zinc-800">
          {node ? node.data.label || node.id : (p.nodeId ?? t('workflow'))}
        </span>
        <span className="min-w-0 flex-1 text-zinc-700">{p.message}</span>
        <span className="shrink-0 font-mono text-[10px] text-zinc-400">{p.code}</span>
        <span className="hidden shrink-0 font-mono text-[10px] text-zinc-400 xl:inline">{p.path}</span>
      </button>
    </li>
  );
}
