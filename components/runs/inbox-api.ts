'use client';
/**
 * The signed-in user's inbox (GET /api/inbox): runs waiting for an answer they may give, and a hook that keeps it
 * fresh — on mount, every POLL_MS while the tab is visible, when the tab comes back, and when `refreshKey` changes.
 */
import { useEffect, useState } from 'react';
import { call } from '@/components/api/client';

export type WaitingKind = 'human_input' | 'tool_approval' | 'breakpoint' | 'other';

export interface WaitingRun {
  id: string;
  workflowId: string;
  workflowName: string;
  workspaceId: string;
  workspaceName: string | null;
  createdAt: string;
  waitingSince: string | null;
  kind: WaitingKind;
  node: { id: string; label: string | null; type: string | null } | null;
  /** The human-input prompt, or the tool waiting for approval. */
  detail: string | null;
}

export interface Inbox {
  count: number;
  runs: WaitingRun[];
}

export const POLL_MS = 20_000;

export function fetchInbox(opts: { workflowId?: string; limit?: number } = {}, signal?: AbortSignal) {
  const qs = new URLSearchParams();
  if (opts.workflowId) qs.set('workflowId', opts.workflowId);
  if (opts.limit) qs.set('limit', String(opts.limit));
  const q = qs.toString();
  return call<Inbox>('GET', `/api/inbox${q ? `?${q}` : ''}`, undefined, signal);
}

/** The inbox (null until the first answer; an error keeps the last one). */
export function useInbox(opts: { workflowId?: string; limit?: number; refreshKey?: unknown } = {}): Inbox | null {
  const { workflowId, limit, refreshKey } = opts;
  const [inbox, setInbox] = useState<Inbox | null>(null);
  useEffect(() => {
    let ctl: AbortController | null = null;
    const load = () => {
      if (document.visibilityState === 'hidden') return;
      ctl?.abort();
      const mine = (ctl = new AbortController());
      fetchInbox({ workflowId, limit }, mine.signal).then(
        (next) => !mine.signal.aborted && setInbox(next),
        () => {}, // a hint, not a page: the next poll tries again
      );
    };
    load();
    const timer = setInterval(load, POLL_MS);
    document.addEventListener('visibilitychange', load);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', load);
      ctl?.abort();
    };
  }, [workflowId, limit, refreshKey]);
  return inbox;
}

/** The editor with the run open (its answer box shows); `?run=` is read by components/editor/run/run-url.ts. */
export function waitingRunHref(r: Pick<WaitingRun, 'workflowId' | 'id'>): string {
  return `/workflows/${encodeURIComponent(r.workflowId)}?run=${encodeURIComponent(r.id)}`;
}
