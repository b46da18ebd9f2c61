'use client';
/**
 * Problems, the live trace, run history and evaluations, in one panel under the canvas: collapsible, and resizable
 * by the separator on its top edge (drag it, or arrow keys when it has focus); both are remembered (layout-prefs.ts).
 */
import { useTranslations } from 'next-intl';
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useEditorState, useRunState } from './editor-context';
import { EvaluatePanel } from './evaluate/evaluate-panel';
import type { EditorState } from './editor-store';
import { BOTTOM_MIN, bottomMax, clampBottom, setLayout, useLayoutPrefs } from './layout-prefs';
import { ProblemsPanel } from './problems-panel';
import { RunHistory } from './run/run-history';
import type { RunState } from './run/run-store';
import { TimelinePanel } from './run/timeline-panel';
import { TracePanel } from './run/trace-panel';

export type BottomTab = 'problems' | 'trace' | 'timeline' | 'runs' | 'evaluate';

const selectProblemCount = (s: EditorState) => s.problems.length;
const selectRunStatus = (s: RunState) => s.status;

export function BottomPanel({ tab, onTab }: { tab: BottomTab; onTab: (t: BottomTab) => void }) {
  const t = useTranslations('editor.bottom');
  const tStatus = useTranslations('common.status');
  const tEvaluate = useTranslations('evaluate');
  const layout = useLayoutPrefs();
  const collapsed = !layout.bottomOpen;
  const setCollapsed = (f: (c: boolean) => boolean) => setLayout((p) => ({ bottomOpen: !f(!p.bottomOpen) }));
  const drag = useRef<{ y: number; h: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { y: e.clientY, h: layout.bottomHeight };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) setLayout({ bottomHeight: clampBottom(d.h + d.y - e.clientY), bottomOpen: true });
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onSeparatorKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16;
    const h = layout.bottomHeight;
    const keys: Record<string, number> = { ArrowUp: h + step, ArrowDown: h - step, Home: BOTTOM_MIN, End: bottomMax() };
    const next = keys[e.key] ?? null;
    if (next === null) return;
    e.preventDefault();
    setLayout({ bottomHeight: clampBottom(next), bottomOpen: true });
  };
  const problems = useEditorState(selectProblemCount);
  const runStatus = useRunState(selectRunStatus);
  const tabs: Array<{ id: BottomTab; label: string; badge?: string; tone?: string }> = [
    {
      id: 'problems',
      label: t('problems'),
      badge: String(problems),
      tone: problems ? 'bg-red-100 text-red-700' : 'bg-zinc-100 text-zinc-500',
    },
    {
      id: 'trace',
      label: t('trace'),
      badge: runStatus === 'idle' ? undefined : tStatus(runStatus),
      tone: 'bg-zinc-100 text-zinc-600',
    },
    { id: 'timeline', label: t('timeline') },
    { id: 'runs', label: t('runs') },
    { id: 'evaluate', label: tEvaluate('tab') },
  ];
  return (
    <section
      className={`relative flex shrink-0 flex-col border-t border-zinc-200 bg-white ${collapsed ? 'h-9' : ''}`}
      style={collapsed ? undefined : { height: layout.bottomHeight }}
      data-testid="bottom-panel"
    >
      {!collapsed && (
        <div
          role="separator"
          aria-orientation="horizontal"
          aria-label={t('resize')}
          aria-valuenow={layout.bottomHeight}
          aria-valuemin={BOTTOM_MIN}
          aria-valuemax={bottomMax()}
          tabIndex={0}
          data-testid="bottom-panel-resize"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onSeparatorKey}
          className={
            'absolute -top-1 left-0 right-0 z-10 h-2 cursor-row-resize touch-none outline-none ' +
            'hover:bg-indigo-200/60 focus-visible:bg-indigo-300/70'
          }
        />
      )}
      <div className="flex h-9 shrink-0 items-center gap-1 border-b border-zinc-200 px-2" role="tablist">
        {tabs.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            data-testid={`tab-${item.id}`}
            onClick={() => {
              onTab(item.id);
              setLayout({ bottomOpen: true });
            }}
            className={
              'flex h-7 items-center gap-1.5 rounded-md px-2.5 text-[12px] font-medium ' +
              (tab === item.id && !collapsed ? 'bg-zinc-900 text-white' : 'text-zinc-600 hover:bg-zinc-100')
            }
          >
            {item.label}
            {item.badge && (
              <span
                className={
                  'rounded-full px-1.5 text-[10px] ' +
                  (tab === item.id && !collapsed ? 'bg-white/20 text-white' : item.tone)
                }
              >
                {item.badge}
              </span>
            )}
          </button>
        ))}
        <span className="flex-1" />
        <button
          type="button"
          className="h-7 rounded-md px-2 text-[12px] text-zinc-500 hover:bg-zinc-100"
          onClick={() => setCollapsed((c) => !c)}
          aria-expanded={!collapsed}
          aria-label={collapsed ? t('showLabel') : t('hideLabel')}
          data-testid="toggle-bottom-panel"
        >
          {collapsed ? t('show') : t('hide')}
        </button>
      </div>
      {!collapsed && (
        <div className="min-h-0 flex-1">
          {tab === 'problems' && <ProblemsPanel />}
          {tab === 'trace' && <TracePanel />}
          {tab === 'timeline' && <TimelinePanel />}
          {tab === 'runs' && <RunHistory onOpen={() => onTab('trace')} />}
          {tab === 'evaluate' && <EvaluatePanel onOpenRun={() => onTab('trace')} />}
        </div>
      )}
    </section>
  );
}
