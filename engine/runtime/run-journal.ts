/**
 * The run's write-ahead of trace events and node snapshots. Events get their contiguous `seq` here and are
 * published live at once; persistence is batched: everything staged goes to the store in one `commit` on the
 * next flush. The executor awaits a flush after every node finishes, so a node's snapshot is durable before any
 * successor starts; between those, a timer flushes long-running nodes' progress and token events.
 */
import { randomUUID } from 'node:crypto';
import type { EventBus, TraceEvent, TraceEventType } from '../events/types';
import type { CheckpointRecord, NodeRunRecord, RunPatch, RunStore } from '../store/types';

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
  private deferred: TraceEvent[] = [];
  private nodes = new Map<string, NodeRunRecord>();
  private checkpoints = new Map<string, CheckpointRecord>();
  private chain: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  /** Why the run's row could not be stored (a run started before its INSERT finished): every flush fails with it. */
  private createFailure: unknown;
  readonly runSpanId = newSpanId();
  /**
   * Set while the run's own row is still being inserted (see RunManager.start); null once it is stored. Nothing is
   * committed before it settles, and runNode() awaits it before executing any node that is not pure: nodes with
   * effects never run for a run that was not recorded. Rejects with StoreWriteError when the INSERT failed.
   */
  runStored: Promise<void> | null = null;

  /** Events emitted while the run's INSERT is in flight: published once it is stored, dropped if it fails. */
  private held: TraceEvent[] | null = null;

  constructor(
    readonly runId: string,
    private readonly store: RunStore,
    private readonly bus: EventBus,
    lastSeq: number,
    created?: Promise<unknown>,
  ) {
    this.seq = lastSeq;
    if (created) {
      this.held = [];
      this.runStored = created.then(
        () => {
          this.runStored = null;
          const held = this.held!;
          this.held = null;
          for (const ev of held) this.bus.publish(ev);
        },
        (e) => {
          this.createFailure = e;
          this.held = null;
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

  /**
   * `afterFlush`: publish only once persisted (terminal events), so a client that sees the stream end and then
   * reads the run finds the final status already stored.
   */
  emit(
    type: TraceEventType,
    data: Record<string, unknown>,
    opts: { nodeId?: string; spanId?: string; parentSpanId?: string; afterFlush?: boolean } = {},
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
    if (opts.afterFlush) this.deferred.push(ev);
    else if (this.held) this.held.push(ev);
    else if (!this.createFailure) this.bus.publish(ev);
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

  /** Persists everything staged (plus an optional run patch) in one atomic commit; calls are serialised. */
  flush(run?: RunPatch): Promise<void> {
    const next = this.chain.then(async () => {
      const events = this.events;
      const nodes = [...this.nodes.values()];
      const checkpoints = [...this.checkpoints.values()];
      if (!events.length && !nodes.length && !checkpoints.length && !run) return;
      this.events = [];
      this.nodes = new Map();
      this.checkpoints = new Map();
      try {
        if (this.createFailure) throw this.createFailure;
        await this.store.commit(
          this.runId,
          checkpoints.length ? { events, nodes, run, checkpoints } : { events, nodes, run },
        );
        const ready = this.deferred.filter((d) => events.includes(d));
        this.deferred = this.deferred.filter((d) => !ready.includes(d));
        for (const d of ready) this.bus.publish(d);
      } catch (e) {
        // Live viewers must still learn how the run ended even when the store is down: publish what was held back
        // (not for a run whose INSERT failed: it does not exist, and nobody was given its id).
        const held = this.deferred.filter((d) => events.includes(d));
        this.deferred = this.deferred.filter((d) => !held.includes(d));
        if (!this.createFailure) for (const d of held) this.bus.publish(d);
        // Put them back (before anything staged meanwhile) so a later flush can still persist them in order.
        this.events = [...events, ...this.events];
        for (const n of nodes) if (!this.nodes.has(n.nodeId)) this.nodes.set(n.nodeId, n);
        for (const c of checkpoints) if (!this.checkpoints.has(c.nodeKey)) this.checkpoints.set(c.nodeKey, c);
        throw new StoreWriteError(e);
      }
    });
    this.chain = next.catch(() => {});
    return next;
  }

  startAutoFlush(intervalMs = 250): void {
    this.timer = setInterval(() => {
      if (this.events.length || this.nodes.size)
        this.flush().catch(() => {
          /* surfaced by the next awaited flush */
        });
    }, intervalMs);
    this.timer.unref?.();
  }

  stopAutoFlush(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
