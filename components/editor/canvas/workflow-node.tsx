'use client';
/**
 * The one card every node type renders with. Memoised, and it reads its run state and problems through
 * per-node selectors, so trace events for one node never re-render the others.
 */
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { NodeTypeInfo } from '@/components/api/types';
import { formatDuration, STATUS_STYLE, StatusBadge } from '@/components/ui/status';
import { useNodeProblems, useNodeRun, useNodeType } from '../editor-context';
import { isBranching, outputsOf, type FlowNode } from '../graph-model';

export const CATEGORY_STYLE: Record<string, { chip: string; icon: string; label: string }> = {
  flow: { chip: 'bg-zinc-800 text-white', icon: '▶', label: 'Flow' },
  ai: { chip: 'bg-violet-600 text-white', icon: '✦', label: 'AI' },
  data: { chip: 'bg-sky-600 text-white', icon: '{ }', label: 'Data' },
  integration: { chip: 'bg-amber-500 text-white', icon: '⇄', label: 'Integrations' },
  logic: { chip: 'bg-rose-600 text-white', icon: '◇', label: 'Logic' },
};
const FALLBACK_CATEGORY = { chip: 'bg-zinc-500 text-white', icon: '•', label: 'Other' };
const DURATION_CHIP_CLASS =
  'rounded-full bg-white px-1.5 text-[9px] tabular-nums text-zinc-500 shadow-sm ring-1 ring-zinc-200';

export function categoryStyle(category: string) {
  return CATEGORY_STYLE[category] ?? FALLBACK_CATEGORY;
}

function firstLine(s: unknown, max = 60): string {
  const t = typeof s === 'string' ? s.trim().split('\n')[0] : '';
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

function Summary({ type, config }: { type: string; config: Record<string, unknown> }) {
  switch (type) {
    case 'start': {
      const inputs = Array.isArray(config.inputs) ? (config.inputs as Array<{ name?: string; type?: string }>) : [];
      if (!inputs.length) return <span className="italic text-zinc-400">no inputs declared</span>;
      return (
        <span className="font-mono">{inputs.map((i) => `${i.name || '?'}: ${i.type ?? 'string'}`).join(', ')}</span>
      );
    }
    case 'end': {
      const outs = Array.isArray(config.outputs) ? (config.outputs as Array<{ name?: string }>) : [];
      if (!outs.length) return <span className="italic text-zinc-400">no outputs mapped</span>;
      return <span className="font-mono">{outs.map((o) => o.name || '?').join(', ')}</span>;
    }
    case 'llm':
      return (
        <>
          <span className="font-mono text-zinc-700">{String(config.model ?? '')}</span>
          {config.userPrompt ? <> · {firstLine(config.userPrompt, 40)}</> : null}
        </>
      );
    case 'template':
      return (
        <span className="font-mono">
          {firstLine(config.template) || <span className="italic text-zinc-400">empty template</span>}
        </span>
      );
    case 'http':
      return (
        <span className="font-mono">
          <b className="font-semibold">{String(config.method ?? 'GET')}</b>{' '}
          {firstLine(config.url, 48) || <span className="italic text-zinc-400">no URL</span>}
        </span>
      );
    default:
      return null;
  }
}

function preview(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && v !== null && 'text' in v && typeof (v as { text: unknown }).text === 'string')
    return (v as { text: string }).text;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 240 ? `${s.slice(0, 240)}…` : s;
}

function WorkflowNodeImpl({ id, type, data }: NodeProps<FlowNode>) {
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
  const liveText = status === 'running' ? run?.tokens : status === 'succeeded' ? preview(run?.output) : '';

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
      <div className="flex items-center gap-2 border-b border-zinc-100 px-2.5 py-2">
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
            title="Pinned output: test runs reuse it instead of running this node"
            className={
              'shrink-0 rounded bg-violet-50 px-1 text-[9px] font-semibold text-violet-700 ring-1 ring-violet-200'
            }
          >
            PIN
          </span>
        )}
        {data.breakpoint === true && (
          <span
            data-testid="node-breakpoint"
            title="Breakpoint: test runs pause before this node"
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
          style={{ top: 21 }}
          data-testid="handle-in"
        >
          <span
            className={
              'pointer-events-none absolute bottom-2.5 right-0 ' +
              'whitespace-nowrap text-[9px] leading-none text-zinc-400'
            }
          >
            {t?.inputs[0]?.label ?? 'in'}
          </span>
        </Handle>
      )}
      {!branching && outputs.length > 0 && (
        <Handle
          type="source"
          position={Position.Right}
          id={outputs[0].id}
          className="pf-handle"
          style={{ top: 21 }}
          data-testid={`handle-out-${outputs[0].id}`}
        >
          <span
            className={
              'pointer-events-none absolute bottom-2.5 left-0 ' +
              'whitespace-nowrap text-[9px] leading-none text-zinc-400'
            }
          >
            {outputs[0].label}
          </span>
        </Handle>
      )}
      <div className="px-2.5 py-2 text-[11px] leading-snug text-zinc-500">
        <div className="line-clamp-2 break-words">
          <Summary type={type ?? ''} config={data.config} />
        </div>
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
      {liveText ? (
        <div
          data-testid="node-live-text"
          className={
            'mx-2 mb-2 line-clamp-3 overflow-hidden whitespace-pre-wrap break-words rounded border px-2 py-1 ' +
            'font-mono text-[10px] leading-snug ' +
            (status === 'running'
              ? 'border-blue-200 bg-blue-50 text-blue-900'
              : 'border-zinc-200 bg-zinc-50 text-zinc-600')
          }
        >
          {status === 'running' && liveText.length > 120 ? `…${liveText.slice(-120)}` : liveText}
        </div>
      ) : null}
      {status === 'failed' && run?.error && (
        <div
          data-testid="node-error"
          className="mx-2 mb-2 line-clamp-2 rounded border border-red-200 bg-red-50 px-2 py-1 text-[10px] text-red-800"
        >
          {run.error.message}
        </div>
      )}
    </div>
  );
}

export const WorkflowNode = memo(WorkflowNodeImpl);
