/** One palette of status colours for nodes, runs and trace rows. */
import { useTranslations } from 'next-intl';
import type { NodeStatus, RunStatus } from '@/components/api/types';

type AnyStatus = NodeStatus | RunStatus | 'idle';

/** `stroke` is the border's colour where a node is drawn on a canvas (the editor's overview). */
export const STATUS_STYLE: Record<AnyStatus, { badge: string; border: string; dot: string; stroke: string }> = {
  idle: { badge: 'bg-zinc-100 text-zinc-600', border: 'border-zinc-200', dot: 'bg-zinc-300', stroke: '#e4e4e7' },
  pending: { badge: 'bg-zinc-100 text-zinc-600', border: 'border-zinc-200', dot: 'bg-zinc-300', stroke: '#e4e4e7' },
  queued: { badge: 'bg-zinc-100 text-zinc-700', border: 'border-zinc-300', dot: 'bg-zinc-400', stroke: '#d4d4d8' },
  running: { badge: 'bg-blue-100 text-blue-800', border: 'border-blue-500', dot: 'bg-blue-500', stroke: '#3b82f6' },
  succeeded: {
    badge: 'bg-emerald-100 text-emerald-800',
    border: 'border-emerald-500',
    dot: 'bg-emerald-500',
    stroke: '#10b981',
  },
  failed: { badge: 'bg-red-100 text-red-800', border: 'border-red-500', dot: 'bg-red-500', stroke: '#ef4444' },
  skipped: {
    badge: 'bg-zinc-100 text-zinc-500',
    border: 'border-zinc-300 border-dashed',
    dot: 'bg-zinc-300',
    stroke: '#d4d4d8',
  },
  waiting: { badge: 'bg-amber-100 text-amber-800', border: 'border-amber-500', dot: 'bg-amber-500', stroke: '#f59e0b' },
  cancelled: {
    badge: 'bg-orange-100 text-orange-800',
    border: 'border-orange-400',
    dot: 'bg-orange-400',
    stroke: '#fb923c',
  },
  interrupted: {
    badge: 'bg-orange-100 text-orange-800',
    border: 'border-orange-400',
    dot: 'bg-orange-400',
    stroke: '#fb923c',
  },
};

export function StatusBadge({ status, testId }: { status: AnyStatus; testId?: string }) {
  const t = useTranslations('common.status');
  const known = status in STATUS_STYLE ? status : 'idle';
  const s = STATUS_STYLE[known];
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ${s.badge}`}
    >
      <span className={`h-1.5 w-1.5 rounded-full ${s.dot} ${status === 'running' ? 'animate-pulse' : ''}`} />
      {t(known)}
    </span>
  );
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}
