export const TRACE_EVENT_TYPES = [
  'run.started',
  'node.started',
  'node.token',
  'node.progress',
  'node.succeeded',
  'node.failed',
  'node.skipped',
  'agent.step',
  'tool.called',
  'tool.result',
  'tool.denied',
  'tool.approval',
  'retrieval.hits',
  'run.waiting',
  'run.succeeded',
  'run.failed',
  'run.cancelled',
  'run.interrupted',
] as const;
export type TraceEventType = (typeof TRACE_EVENT_TYPES)[number];

export const TERMINAL_EVENT_TYPES: ReadonlySet<string> = new Set([
  'run.succeeded',
  'run.failed',
  'run.cancelled',
  'run.interrupted',
]);

/** One format for the editor, the API and history. `seq` is contiguous per run, starting at 1. */
export interface TraceEvent {
  seq: number;
  runId: string;
  ts: string; // ISO-8601
  type: TraceEventType;
  nodeId?: string;
  spanId: string;
  parentSpanId?: string;
  data: Record<string, unknown>;
}

export type Unsubscribe = () => void;

/** Live fan-out of trace events. Persistence of events is the RunStore's job; the bus only delivers. */
export interface EventBus {
  readonly kind: string;
  publish(event: TraceEvent): void;
  /** Replays events it still holds with seq > afterSeq, then delivers live ones, in seq order. */
  subscribe(runId: string, afterSeq: number, onEvent: (e: TraceEvent) => void, opts?: SubscribeOptions): Unsubscribe;
  /** The run's execution in this process ended; buffered events may be dropped after a grace period. */
  release(runId: string): void;
  /** Whether live delivery works right now (`/api/health` answers 503 naming the bus when it does not). */
  status(): BusStatus;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /**
   * Called when live delivery may have lost events after the last one delivered (the bus was cut off from its
   * server): re-read the store from that seq. Live delivery goes on in order; it may repeat what the re-read found.
   */
  onResync?: () => void;
}

export interface BusStatus {
  ok: boolean;
  /** Why not, for operators (never a URL or a path). */
  reason?: string;
}
