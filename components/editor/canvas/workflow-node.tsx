'use client';
/**
 * The one card every node type renders with. Memoised, and it reads its run state and problems through
 * per-node selectors, so trace events for one node never re-render the others. Its size is fixed — 240 px wide,
 * a header and a two-line body, plus one row per branch — whatever its run status or output: a result takes the
 * body's second line and opens in a popover (node-result.tsx), so a run never makes cards overlap. A card is
 * mounted only while its node is in view at a readable zoom (overview-scene.ts); otherwise the overview draws it.
 */
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { NodeTypeInfo } from '@/components/api/types';
import { formatDuration, STATUS_STYLE, StatusBadge } from '@/components/ui/status';
import { useNodeProblems, useNodeRun, useNodeType } from '../editor-context';
import { isBranching, outputsOf, type FlowNode } from '../graph-model';
import { TOP_HANDLE_TOP } from './card-geometry';
import { categoryStyle } from './categories';
import { NodeResult, resultOf } from './node-result';
import { Summary } from './node-summary';

const DURATION_CHIP_CLASS =
  'rounded-full bg-white px-1.5 text-[9px] tabular-nums text-zinc-500 shadow-sm ring-1 ring-zinc-200';
const HANDLE_LABEL = 'pointer-events-none absolute bottom-2.5 whitespace-nowrap text-[9px] leading-none text-zinc-400';
/** Where card-geometry.ts says these handles are: the overview draws edges to the same place. */
const TOP_HANDLE_STYLE = { top: TOP_HANDLE_TOP };

function WorkflowNodeImpl({ id, type, data }: NodeProps<FlowNode>) {
  const tn = useTranslations('canvas.node');
  const t = useNodeType(type) as NodeTypeInfo | undefined;
  const run = useNodeRun(id);
  const problems = useNodeProblems(id);
  const outputs = useMemo(() => outputsOf(t, data.config), [t, data.config]);
  const updateNodeInternals = useUpdateNodeInternals();
  const outKey = outputs.map((o) => o.id).join('|');
  // Re-measure handles when branches change; not on mount (React Flow measures new nodes itself, and an early
  // per-node update would resolve the initial fitView before the other nodes have sizes).
  const measuredKey = useRef(outKey);
  useEffect(() => {
    if (measuredKey.current === outKey) return;
    measuredKey.current = outKey;
    updateNodeInternals(id);
  }, [id, outKey, updateNodeInternals]);

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
        `pf-node relative w-60 rounded-lg border-2 bg-white text-xs shadow-sm ${border} ` +
        `${status === 'running' ? 'pf-running' : ''} ${status === 'skipped' ? 'opacity-60' : ''}`
      }
    >
      {problems.length > 0 && (
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
          <div className="truncate font-mono text-[10px] leading-tight text-zinc-400">
            {id} · {t?.label ?? type}
          </div>
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
      {status && status !== 'pending' && (
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
      {hasInput && (
        <Handle
          type="target"
          position={Position.Left}
          id="in"
          className="pf-handle"
          style={TOP_HANDLE_STYLE}
          data-testid="handle-in"
        >
          <span className={`${HANDLE_LABEL} right-0`}>{t?.inputs[0]?.label ?? tn('in')}</span>
        </Handle>
      )}
      {!branching && outputs.length > 0 && (
        <Handle
          type="source"
          position={Position.Right}
          id={outputs[0].id}
          className="pf-handle"
          style={TOP_HANDLE_STYLE}
          data-testid={`handle-out-${outputs[0].id}`}
        >
          <span className={`${HANDLE_LABEL} left-0`}>{outputs[0].label}</span>
        </Handle>
      )}
      {/* Fixed height: two lines of summary, or one of summary and one of result. */}
      <div className="h-[46px] px-2.5 py-2 text-[11px] leading-[15px] text-zinc-500">
        <div className={`break-words ${result ? 'truncate' : 'line-clamp-2'}`}>
          <Summary type={type ?? ''} config={data.config} />
        </div>
        {result && <NodeResult result={result} />}
      </div>
      {branching && (
        <div className="border-t border-zinc-100 py-1">
          {outputs.map((o) => (
            <div key={o.id} className="relative flex h-6 items-center justify-end pr-3 text-[11px] text-zinc-600">
              <span className={`truncate ${o.id === 'else' ? 'italic text-zinc-400' : 'font-medium'}`}>{o.label}</span>
              <Handle
                type="source"
                position={Position.Right}
                id={o.id}
                className="pf-handle"
                data-testid={`handle-out-${o.id}`}
              />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

export const WorkflowNode = memo(WorkflowNodeImpl);
