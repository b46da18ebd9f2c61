'use client';
/**
 * The one card every node type renders with. Memoised, and it reads its run state and problems through
 * per-node selectors, so trace events for one node never re-render the others. Its size is fixed — 240 px wide,
 * a header and a two-line body, plus one row per branch — whatever its run status or output: a result takes the
 * body's second line and opens in a popover (node-result.tsx), so a run never makes cards overlap.
 * Zoomed far out, where its text could not be read anyway, a card draws only its frame, chip and title (the same
 * size; handles only until React Flow has measured them), and a running card does not pulse (the pulse repaints
 * the canvas every frame): a 500-node graph seen whole then paints a fraction of the text and shadows.
 */
import { Handle, Position, useStore, useUpdateNodeInternals, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { memo, useCallback, useEffect, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import type { NodeTypeInfo } from '@/components/api/types';
import { formatDuration, STATUS_STYLE, StatusBadge } from '@/components/ui/status';
import { useNodeProblems, useNodeRun, useNodeType } from '../editor-context';
import { isBranching, outputsOf, type FlowNode } from '../graph-model';
import { NodeResult, resultOf } from './node-result';
import { Summary } from './node-summary';

/** Category chips; their names are messages (canvas.category.<key>, `other` for an unknown category). */
export const CATEGORY_STYLE: Record<string, { chip: string; icon: string }> = {
  flow: { chip: 'bg-zinc-800 text-white', icon: '▶' },
  ai: { chip: 'bg-violet-600 text-white', icon: '✦' },
  data: { chip: 'bg-sky-600 text-white', icon: '{ }' },
  integration: { chip: 'bg-amber-500 text-white', icon: '⇄' },
  logic: { chip: 'bg-rose-600 text-white', icon: '◇' },
};
const FALLBACK_CATEGORY = { chip: 'bg-zinc-500 text-white', icon: '•' };
const DURATION_CHIP_CLASS =
  'rounded-full bg-white px-1.5 text-[9px] tabular-nums text-zinc-500 shadow-sm ring-1 ring-zinc-200';
const HANDLE_LABEL = 'pointer-events-none absolute bottom-2.5 whitespace-nowrap text-[9px] leading-none text-zinc-400';
const TOP_HANDLE_STYLE = { top: 21 };
/** Below this zoom a card is drawn in outline (13 px text is under 4 px on screen). */
export const FAR_ZOOM = 0.3;
export const selectFar = (s: ReactFlowState) => s.transform[2] < FAR_ZOOM;

/**
 * A handle: React Flow's, or zoomed far out a plain element with the same classes, place and data attributes, so
 * React Flow measures the same handle bounds (edges start and end in the same places) without a component, store
 * subscriptions and listeners per handle — at that zoom a handle is 3 px on screen, too small to drag a
 * connection from. Pressing it drags the node instead.
 */
function Port({
  far,
  type,
  position,
  id,
  style,
  testId,
  children,
}: {
  far: boolean;
  type: 'source' | 'target';
  position: Position;
  id: string;
  style?: CSSProperties;
  testId: string;
  children?: ReactNode;
}) {
  if (!far)
    return (
      <Handle type={type} position={position} id={id} className="pf-handle" style={style} data-testid={testId}>
        {children}
      </Handle>
    );
  return (
    <div
      data-handleid={id}
      data-handlepos={position}
      className={`react-flow__handle react-flow__handle-${position} pf-handle ${type}`}
      style={style}
      data-testid={testId}
    />
  );
}

export function categoryStyle(category: string) {
  return CATEGORY_STYLE[category] ?? FALLBACK_CATEGORY;
}

/** The message key of a category's name. */
export function categoryKey(category: string): string {
  return category in CATEGORY_STYLE ? category : 'other';
}

function WorkflowNodeImpl({ id, type, data }: NodeProps<FlowNode>) {
  const tn = useTranslations('canvas.node');
  const t = useNodeType(type) as NodeTypeInfo | undefined;
  const run = useNodeRun(id);
  const problems = useNodeProblems(id);
  const outputs = useMemo(() => outputsOf(t, data.config), [t, data.config]);
  const updateNodeInternals = useUpdateNodeInternals();
  const outKey = outputs.map((o) => o.id).join('|');
  const far = useStore(selectFar);
  const measured = useStore(useCallback((s: ReactFlowState) => !!s.nodeLookup.get(id)?.internals.handleBounds, [id]));
  /**
   * Zoomed far out, a card whose handles React Flow has measured draws none: React Flow keeps the bounds it measured
   * (it measures a card again only when its size changes, and the size is fixed), the far edges are drawn from them,
   * and 1,000 handles are 1,000 paint layers fewer to hit-test and layerize every frame.
   */
  const bare = far && measured;
  // Re-measure handles when branches change, once they are drawn; not on mount (React Flow measures new nodes
  // itself, and an early per-node update would resolve the initial fitView before the other nodes have sizes).
  const measuredKey = useRef(outKey);
  useEffect(() => {
    if (measuredKey.current === outKey || bare) return;
    measuredKey.current = outKey;
    updateNodeInternals(id);
  }, [id, outKey, bare, updateNodeInternals]);

  const cat = categoryStyle(t?.category ?? '');
  const status = run?.status;
  const border =
    status && status !== 'pending'
      ? STATUS_STYLE[status].border
      : problems.length
        ? 'border-red-400'
        : 'border-zinc-200';
  const branching = isBranching(t);
  const hasInput = (t?.inputs.length ?? 1) > 0;
  const result = resultOf(run);

  return (
    <div
      data-testid="workflow-node"
      data-node-id={id}
      data-node-type={type}
      data-status={status ?? 'idle'}
      className={
        `pf-node relative w-60 rounded-lg border-2 bg-white text-xs ${far ? '' : 'shadow-sm'} ${border} ` +
        `${status === 'running' && !far ? 'pf-running' : ''} ${status === 'skipped' ? 'opacity-60' : ''}`
      }
    >
      {problems.length > 0 && !far && (
        <div
          data-testid="node-problem-badge"
          title={problems.map((p) => p.message).join('\n')}
          className={
            'absolute -left-2 -top-2 z-10 grid h-5 min-w-5 place-items-center ' +
            'rounded-full bg-red-600 px-1 text-[10px] font-bold text-white shadow'
          }
        >
          {problems.length}
        </div>
      )}
      <div className="flex h-[46px] items-center gap-2 border-b border-zinc-100 px-2.5">
        <span className={`grid h-6 w-6 shrink-0 place-items-center rounded-md text-[10px] font-bold ${cat.chip}`}>
          {cat.icon}
        </span>
        <div className="min-w-0 flex-1">
          <div className="truncate text-[13px] font-semibold leading-tight text-zinc-900" data-testid="node-label">
            {data.label || t?.label || type}
          </div>
          {!far && (
            <div className="truncate font-mono text-[10px] leading-tight text-zinc-400">
              {id} · {t?.label ?? type}
            </div>
          )}
        </div>
        {/* Editor-only flags (pinned-data.ts): a pinned output stands in for the node in test runs. */}
        {data.pinned != null && (
          <span
            data-testid="node-pinned"
            title={tn('pinnedTitle')}
            className={
              'shrink-0 rounded bg-violet-50 px-1 text-[9px] font-semibold text-violet-700 ring-1 ring-violet-200'
            }
          >
            {tn('pin')}
          </span>
        )}
        {data.breakpoint === true && (
          <span
            data-testid="node-breakpoint"
            title={tn('breakpointTitle')}
            className="h-2.5 w-2.5 shrink-0 rounded-full bg-red-600"
          />
        )}
      </div>
      {status && status !== 'pending' && !far && (
        <div className="absolute -top-2.5 right-2 flex items-center gap-1">
          {run?.durationMs != null && <span className={DURATION_CHIP_CLASS}>{formatDuration(run.durationMs)}</span>}
          {run && run.attempt > 1 && (
            <span
              data-testid="node-attempt"
              className="rounded-full bg-amber-50 px-1.5 text-[9px] font-medium text-amber-700 ring-1 ring-amber-200"
            >
              ×{run.attempt}
            </span>
          )}
          <StatusBadge status={status} testId="node-status" />
        </div>
      )}
      {hasInput && !bare && (
        <Port far={far} type="target" position={Position.Left} id="in" style={TOP_HANDLE_STYLE} testId="handle-in">
          <span className={`${HANDLE_LABEL} right-0`}>{t?.inputs[0]?.label ?? tn('in')}</span>
        </Port>
      )}
      {!branching && outputs.length > 0 && !bare && (
        <Port
          far={far}
          type="source"
          position={Position.Right}
          id={outputs[0].id}
          style={TOP_HANDLE_STYLE}
          testId={`handle-out-${outputs[0].id}`}
        >
          <span className={`${HANDLE_LABEL} left-0`}>{outputs[0].label}</span>
        </Port>
      )}
      {/* Fixed height: two lines of summary, or one of summary and one of result. */}
      <div className="h-[46px] px-2.5 py-2 text-[11px] leading-[15px] text-zinc-500">
        {!far && (
          <>
            <div className={`break-words ${result ? 'truncate' : 'line-clamp-2'}`}>
              <Summary type={type ?? ''} config={data.config} />
            </div>
            {result && <NodeResult result={result} />}
          </>
        )}
      </div>
      {branching && (
        <div className="border-t border-zinc-100 py-1">
          {outputs.map((o) => (
            <div key={o.id} className="relative flex h-6 items-center justify-end pr-3 text-[11px] text-zinc-600">
              {!far && (
                <span className={`truncate ${o.id === 'else' ? 'italic text-zinc-400' : 'font-medium'}`}>
                  {o.label}
                </span>
              )}
              {!bare && (
                <Port far={far} type="source" position={Position.Right} id={o.id} testId={`handle-out-${o.id}`} />
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

export const WorkflowNode = memo(WorkflowNodeImpl);
