/**
 * The run being shown on the canvas, built by folding trace events (live or replayed) in `seq` order.
 * Per-node views are immutable and replaced only when that node changes, so each node card re-renders only
 * for its own events; events are applied in batches, one store update per animation frame.
 */
import type { RunView, TraceEvent } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';
import { applyEvents } from './apply-events';
import { runUsageOf } from './run-cost';
import { EMPTY_NODE, EMPTY_RUN, isTerminal, type NodeRunState, type RunState } from './run-state';

export { applyEvents } from './apply-events';
export { EMPTY_RUN, isTerminal, type NodeRunState, type RunState, type TraceSpan } from './run-state';

export class RunStore {
  readonly store: Store<RunState> = createStore<RunState>(EMPTY_RUN);
  private queue: TraceEvent[] = [];
  private flushHandle: number | null = null;
  private log: TraceEvent[] = [];

  get state(): RunState {
    return this.store.get();
  }

  reset(runId: string | null) {
    this.queue = [];
    this.log = [];
    this.store.set({ ...EMPTY_RUN, runId, status: runId ? 'queued' : 'idle', nodes: new Map() });
  }

  setConnection(connection: RunState['connection']) {
    if (this.state.connection !== connection) this.store.set({ ...this.state, connection });
  }

  /** The highest seq received, counting events still waiting for the next frame. */
  get lastSeq(): number {
    return this.queue.length ? this.queue[this.queue.length - 1].seq : this.state.lastSeq;
  }

  push(e: TraceEvent) {
    if (e.runId !== this.state.runId || e.seq <= this.lastSeq) return; // replayed after a reconnect: already applied
    this.queue.push(e);
    if (this.flushHandle === null) {
      this.flushHandle =
        typeof document !== 'undefined' && document.visibilityState === 'visible'
          ? (requestAnimationFrame(() => this.flush()) as unknown as number)
          : (setTimeout(() => this.flush(), 16) as unknown as number);
    }
  }

  /** Applies queued events now (also called before reading state that must be current). */
  flush() {
    if (this.flushHandle !== null) {
      cancelAnimationFrame(this.flushHandle);
      clearTimeout(this.flushHandle);
      this.flushHandle = null;
    }
    if (!this.queue.length) return;
    const events = this.queue;
    this.queue = [];
    for (const e of events) this.log.push(e);
    this.store.set(applyEvents(this.state, events));
  }

  /** Every event applied to the shown run, in seq order (a new array after `reset`): for views that fold events
   * themselves, such as the timeline, which reads on from the length it has seen. */
  get events(): readonly TraceEvent[] {
    return this.log;
  }

  /** Reconciles with the stored snapshot (authoritative for statuses and attempt counts). */
  applySnapshot(run: RunView) {
    this.flush();
    const s = this.state;
    if (s.runId !== run.id) return;
    // A snapshot taken while events were still streaming may be older than them: then only run-level facts count.
    const settled = s.lastSeq === 0 || (isTerminal(s.status) && isTerminal(run.status));
    const nodes = settled ? new Map(s.nodes) : s.nodes;
    if (settled) {
      for (const n of run.nodes) {
        const cur = nodes.get(n.nodeId) ?? EMPTY_NODE;
        const next: NodeRunState = {
          ...cur,
          status: n.status,
          attempt: n.attempt,
          input: n.input ?? cur.input,
          output: n.output ?? cur.output,
          error: n.error,
          durationMs: n.durationMs,
          usage: n.usage,
        };
        if (!sameNode(cur, next)) nodes.set(n.nodeId, next);
      }
    }
    this.store.set({
      ...s,
      nodes,
      status: settled ? run.status : s.status,
      error: settled ? run.error : s.error,
      outputs: settled ? run.outputs : s.outputs,
      inputs: run.inputs,
      startedAt: run.startedAt ?? run.createdAt,
      finishedAt: settled ? run.finishedAt : s.finishedAt,
      usage: settled && isTerminal(run.status) ? (runUsageOf(run.usage) ?? s.usage) : s.usage,
    });
  }
}

function sameNode(a: NodeRunState, b: NodeRunState) {
  return (
    a.status === b.status &&
    a.attempt === b.attempt &&
    a.durationMs === b.durationMs &&
    a.output === b.output &&
    a.error === b.error &&
    a.input === b.input
  );
}
