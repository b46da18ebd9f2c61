/**
 * The run's write-ahead of trace events and node snapshots. Events get their contiguous `seq` here; everything staged
 * goes to the store in one `commit` on the next flush, and an event reaches live subscribers only once that commit
 * has succeeded: seq N is the same event live and on replay, and a viewer is never told what the database does not
 * say (a node that "succeeded" during an outage, a failure the database never recorded). The executor awaits a
 * flush after every node finishes, so a node's snapshot is durable before any successor starts; between those, a
 * timer flushes what a running node emits: within LIVE_FLUSH_MS for streamed tokens and progress (what bounds how
 * late a token reaches a viewer), within FLUSH_MS for the rest (a node that started and runs for a while).
 */
import { randomUUID } from 'node:crypto';
import type { EventBus, TraceEvent, TraceEventType } from '../events/types';
import type { CheckpointRecord, NodeRunRecord, RunPatch, RunStore } from '../store/types';
import { RunInputRefs } from './input-refs';
import type { OffloadMemo } from './large-values';

/** How long a streamed token or progress event waits, at most, for the commit that publishes it. */
export const LIVE_FLUSH_MS = 50;
/**
 * How long any other event waits at most. Longer, so that a chain of quick pure nodes, whose snapshots ride with the
 * next node's commit, is not cut into extra commits by the timer.
 */
export const FLUSH_MS = 250;
const LIVE_TYPES = new Set<TraceEventType>(['node.token', 'node.progress']);

export class StoreWriteError extends Error {
  constructor(cause: unknown) {
    super(`could not persist run state: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StoreWriteError';
  }
}

export function newSpanId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

export class RunJournal {
  private seq: number;
  private events: TraceEvent[] = [];
  private nodes = new Map<string, NodeRunRecord>();
  private checkpoints = new Map<string, CheckpointRecord>();
  private chain: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  /** Set by startAutoFlush(): then an emitted event schedules a flush (see scheduleFlush). */
  private autoFlush = false;
  private timerDue = 0;
  /** Why the run's row could not be stored (a run started before its INSERT finished): every flush fails with it. */
  private createFailure: unknown;
  readonly runSpanId = newSpanId();
  /** The large strings this execution moved into artifacts (large-values.ts), so none is written twice. */
  readonly offloaded: OffloadMemo = new Map();
  /** The run's inputs kept by reference (input-refs.ts): snapshots and events keep the reference, not the value. */
  inputRefs: RunInputRefs = RunInputRefs.none;
  /**
   * Set while the run's own row is still being inserted (see RunManager.start); null once it is stored. Nothing is
   * committed before it settles, and runNode() awaits it before executing any node that is not pure: nodes with
   * effects never run for a run that was not recorded. Rejects with StoreWriteError when the INSERT failed.
   */
  runStored: Promise<void> | null = null;

  constructor(
    readonly runId: string,
    private readonly store: RunStore,
    private readonly bus: EventBus,
    lastSeq: number,
    created?: Promise<unknown>,
  ) {
    this.seq = lastSeq;
    if (created) {
      // Nothing is committed (so nothing published) before the run's row is stored; if it never is, nothing is.
      this.runStored = created.then(
        () => {
          this.runStored = null;
        },
        (e) => {
          this.createFailure = e;
          throw new StoreWriteError(e);
        },
      );
      this.runStored.catch(() => {}); // awaited by runNode() and flush()
      this.chain = this.runStored.catch(() => {});
    }
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Stages an event with the next seq; it is published once committed (see flush). */
  emit(
    type: TraceEventType,
    data: Record<string, unknown>,
    opts: { nodeId?: string; spanId?: string; parentSpanId?: string } = {},
  ): TraceEvent {
    const ev: TraceEvent = {
      seq: ++this.seq,
      runId: this.runId,
      ts: new Date().toISOString(),
      type,
      ...(opts.nodeId ? { nodeId: opts.nodeId } : {}),
      // Node-level events without a span of their own (e.g. node.skipped) still get one, under the run's span.
      spanId: opts.spanId ?? (opts.nodeId ? newSpanId() : this.runSpanId),
      ...(opts.parentSpanId || opts.nodeId ? { parentSpanId: opts.parentSpanId ?? this.runSpanId } : {}),
      data,
    };
    this.events.push(ev);
    this.scheduleFlush(LIVE_TYPES.has(type));
    return ev;
  }

  stageNode(rec: NodeRunRecord): void {
    this.nodes.set(rec.nodeId, rec);
  }

  /** A node's checkpoint for the next commit (the latest staged per node key wins). */
  stageCheckpoint(rec: CheckpointRecord): void {
    this.checkpoints.set(rec.nodeKey, rec);
  }

  /** The node's checkpoint: the one staged here and not yet committed, else the store's. */
  async loadCheckpoint(nodeKey: string): Promise<CheckpointRecord | null> {
    const staged = this.checkpoints.get(nodeKey);
    if (staged) return staged;
    if (this.runStored) await this.runStored.catch(() => {});
    return this.store.getCheckpoint(this.runId, nodeKey);
  }

  /**
   * Persists everything staged (plus an optional run patch) in one atomic commit, then publishes the committed
   * events in seq order; calls are serialised. When the commit fails nothing is published: the batch is put back
   * for a later flush, and a live viewer hears next what the database records next (a later commit, or the
   * run.interrupted that recovery writes).
   */
  flush(run?: RunPatch): Promise<void> {
    const next = this.chain.then(async () => {
      const events = this.events;
      const nodes = [...this.nodes.values()];
      const checkpoints = [...this.checkpoints.values()];
      if (!events.length && !nodes.length && !checkpoints.length && !run) return;
      this.events = [];
      this.nodes = new Map();
      this.checkpoints = new Map();
      // This commit takes what the timer was for; what is emitted from now on schedules it again.
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      try {
        if (this.createFailure) throw this.createFailure;
        await this.store.commit(
          this.runId,
          checkpoints.length ? { events, nodes, run, checkpoints } : { events, nodes, run },
        );
      } catch (e) {
        // Put them back (before anything staged meanwhile) so a later flush can still persist them in order.
        this.events = [...events, ...this.events];
        for (const n of nodes) if (!this.nodes.has(n.nodeId)) this.nodes.set(n.nodeId, n);
        for (const c of checkpoints) if (!this.checkpoints.has(c.nodeKey)) this.checkpoints.set(c.nodeKey, c);
        throw new StoreWriteError(e);
      }
      for (const ev of events) this.bus.publish(ev);
    });
    this.chain = next.catch(() => {});
    return next;
  }

  /** From now on an emitted event is committed, and so published, within LIVE_FLUSH_MS or FLUSH_MS. */
  startAutoFlush(): void {
    this.autoFlush = true;
    if (this.events.length || this.nodes.size) this.scheduleFlush(false);
  }

  stopAutoFlush(): void {
    this.autoFlush = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleFlush(live: boolean): void {
    if (!this.autoFlush) return;
    const due = Date.now() + (live ? LIVE_FLUSH_MS : FLUSH_MS);
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.events.length || this.nodes.size)
        this.flush().catch(() => {
          /* surfaced by the next awaited flush */
        });
    }, due - Date.now());
    this.timer.unref?.();
  }
}
