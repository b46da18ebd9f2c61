/** What each timeline bar is called and how it is drawn, by kind and status (one place for the view and tooltips). */
import { tr } from '@/components/lib/i18n';
import type { BarKind, BarStatus, TimelineBar } from './timeline-model';

const KIND_CHIP: Record<BarKind, string> = {
  node: 'bg-zinc-100 text-zinc-600',
  iteration: 'bg-violet-100 text-violet-700',
  attempt: 'bg-amber-100 text-amber-800',
  round: 'bg-sky-100 text-sky-700',
  agent: 'bg-indigo-100 text-indigo-700',
  tool: 'bg-teal-100 text-teal-700',
  retrieval: 'bg-cyan-100 text-cyan-700',
  wait: 'bg-amber-50 text-amber-700 ring-1 ring-amber-300',
};

const KIND_FILL: Record<BarKind, string> = {
  node: 'bg-emerald-500',
  iteration: 'bg-violet-500',
  attempt: 'bg-amber-500',
  round: 'bg-sky-500',
  agent: 'bg-indigo-500',
  tool: 'bg-teal-500',
  retrieval: 'bg-cyan-600',
  wait: 'bg-amber-300',
};

export const kindChip = (k: BarKind) => KIND_CHIP[k];

/** The bar's fill: its kind's colour, overridden where the status says more (failed, skipped, still running). */
export function barFill(bar: TimelineBar): string {
  const st: BarStatus = bar.status;
  if (st === 'failed') return 'bg-red-500';
  if (st === 'skipped') return 'border border-dashed border-zinc-400 bg-zinc-100';
  if (st === 'cancelled') return 'bg-orange-400';
  if (bar.kind === 'wait') return KIND_FILL.wait + (st === 'waiting' ? ' animate-pulse' : '');
  if (st === 'waiting') return 'bg-amber-400';
  if (st === 'running') return `${bar.kind === 'node' ? 'bg-blue-500' : KIND_FILL[bar.kind]} animate-pulse`;
  return KIND_FILL[bar.kind];
}

/** The row's text: the node's label for node-level bars, else what the span did. */
export function barTitle(bar: TimelineBar, nodeLabel: (id?: string) => string): string {
  switch (bar.kind) {
    case 'node':
      return nodeLabel(bar.nodeId);
    case 'iteration':
      return tr('run.timeline.title.iteration', { node: nodeLabel(bar.nodeId), n: bar.iteration ?? '?' });
    case 'attempt':
      return (bar.attempt ?? 1) > 1 && bar.details.some(([k]) => k === 'backoff')
        ? tr('run.timeline.title.retry', { n: bar.attempt ?? 1 })
        : tr('run.timeline.title.attempt', { n: bar.attempt ?? 1 });
    case 'tool':
      return bar.name;
    case 'wait':
      return tr('run.timeline.title.wait', { name: bar.name });
    default:
      return bar.name;
  }
}

export function formatTokens(u: TimelineBar['usage']): string {
  if (!u || (u.inputTokens == null && u.outputTokens == null)) return '';
  return tr('run.cost.tokens', { input: u.inputTokens ?? 0, output: u.outputTokens ?? 0 });
}

export function formatCost(u: TimelineBar['usage']): string {
  if (!u || u.costUsd === undefined) return '';
  if (u.costUsd === null) return tr('run.cost.unknownPrice');
  if (u.costUsd === 0) return '$0';
  return u.costUsd < 0.01 ? `$${u.costUsd.toFixed(5)}` : `$${u.costUsd.toFixed(4)}`;
}
