'use client';
/** Problems, the live trace and run history, in one collapsible panel under the canvas. */
import { useState } from 'react';
import { useEditorState, useRunState } from './editor-context';
import type { EditorState } from './editor-store';
import { ProblemsPanel } from './problems-panel';
import { RunHistory } from './run/run-history';
import type { RunState } from './run/run-store';
import { TimelinePanel } from './run/timeline-panel';
import { TracePanel } from './run/trace-panel';

export type BottomTab = 'problems' | 'trace' | 'timeline' | 'runs';

const selectProblemCount = (s: EditorState) => s.problems.length;
const selectRunStatus = (s: RunState) => s.status;

export function BottomPanel({ tab, onTab }: { tab: BottomTab; onTab: (t: BottomTab) => void }) {
  const [collapsed, setCollapsed] = useState(false);
  const problems = useEditorState(selectProblemCount);
  const runStatus = useRunState(selectRunStatus);
  const tabs: Array<{ id: BottomTab; label: string; badge?: string; tone?: string }> = [
    {
      id: 'problems',
      label: 'Problems',
      badge: String(problems),
      tone: problems ? 'bg-red-100 text-red-700' : 'bg-zinc-100 text-zinc-500',
    },
    {
      id: 'trace',
      label: 'Trace',
      badge: runStatus === 'idle' ? undefined : runStatus,
      tone: 'bg-zinc-100 text-zinc-600',
    },
    { id: 'timeline', label: 'Timeline' },
    { id: 'runs', label: 'Runs' },
  ];
  return (
    <section
      className={`flex shrink-0 flex-col border-t border-zinc-200 bg-white ${collapsed ? 'h-9' : 'h-72'}`}
      data-testid="bottom-panel"
    >
      <div className="flex h-9 shrink-0 items-center gap-1 border-b border-zinc-200 px-2" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => {
              onTab(t.id);
              setCollapsed(false);
            }}
            className={
              'flex h-7 items-center gap-1.5 rounded-md px-2.5 text-[12px] font-medium ' +
              (tab === t.id && !collapsed ? 'bg-zinc-900 text-white' : 'text-zinc-600 hover:bg-zinc-100')
            }
          >
            {t.label}
            {t.badge && (
              <span
                className={
                  'rounded-full px-1.5 text-[10px] ' + (tab === t.id && !collapsed ? 'bg-white/20 text-white' : t.tone)
                }
              >
                {t.badge}
              </span>
            )}
          </button>
        ))}
        <span className="flex-1" />
        <button
          type="button"
          className="h-7 rounded-md px-2 text-[12px] text-zinc-500 hover:bg-zinc-100"
          onClick={() => setCollapsed((c) => !c)}
          data-testid="toggle-bottom-panel"
        >
          {collapsed ? 'Show ▴' : 'Hide ▾'}
        </button>
      </div>
      {!collapsed && (
        <div className="min-h-0 flex-1">
          {tab === 'problems' && <ProblemsPanel />}
          {tab === 'trace' && <TracePanel />}
          {tab === 'timeline' && <TimelinePanel />}
          {tab === 'runs' && <RunHistory onOpen={() => onTab('trace')} />}
        </div>
      )}
    </section>
  );
}
