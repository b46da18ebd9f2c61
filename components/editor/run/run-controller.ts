/**
 * Follows one run over Server-Sent Events. The browser's EventSource reconnects by itself after a drop and sends
 * `Last-Event-ID`, so the server replays what was missed; when the browser gives up (error status, server down)
 * we reconnect ourselves with `?after=<last seq>`. Events already applied are ignored by seq, so a replay never
 * doubles anything. The stream is closed by us on a terminal event (otherwise EventSource would reconnect).
 *
 * A resumed run has more than one terminal event, and the server's stream ends at the first one it sends; so
 * after each terminal event we probe once more from its seq: a resumed part streams in, otherwise the server
 * closes the probe at once and the run is finished.
 */
import { api } from '@/components/api/client';
import { TRACE_EVENT_TYPES, type TraceEvent } from '@/components/api/types';
import { isTerminal, RunStore } from './run-store';

const TERMINAL = new Set(['run.succeeded', 'run.failed', 'run.cancelled', 'run.interrupted']);
/** Named SSE events to listen for; `tool.approval` too, so a server that sends it before the shared list names it
 * leaves no gap in the sequence (a gap makes the controller re-read, which would then loop). */
const LISTENED = [...new Set<string>([...TRACE_EVENT_TYPES, 'tool.approval'])];

export class RunController {
  private es: EventSource | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = 500;
  private generation = 0;

  constructor(
    readonly runs: RunStore,
    private readonly onFinished?: (runId: string) => void,
  ) {}

  /** Shows a run: replays its whole trace from seq 0 (live runs continue streaming). */
  open(runId: string) {
    this.close();
    this.runs.reset(runId);
    this.connect(runId, 0);
    void this.refreshSnapshot(runId);
  }

  /** Continues following the current run after a resume (new events continue the same seq). */
  follow() {
    const runId = this.runs.state.runId;
    if (!runId) return;
    this.close(false);
    this.connect(runId, this.runs.lastSeq);
  }

  close(clearRetry = true) {
    this.generation++;
    this.es?.close();
    this.es = null;
    if (clearRetry) clearTimeout(this.retryTimer);
    this.runs.setConnection('closed');
  }

  /** Test hook: drops the connection as a network failure would, then catches up like the reconnect path does. */
  simulateDrop() {
    const runId = this.runs.state.runId;
    if (!runId || !this.es) return false;
    this.es.close();
    this.es = null;
    this.runs.setConnection('reconnecting');
    this.scheduleReconnect(runId, 300);
    return true;
  }

  private connect(runId: string, after: number, probe = false) {
    const gen = ++this.generation;
    let received = 0;
    if (!probe) this.runs.setConnection(after > 0 ? 'reconnecting' : 'connecting');
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events${after > 0 ? `?after=${after}` : ''}`);
    this.es = es;
    const onEvent = (m: MessageEvent<string>) => {
      if (gen !== this.generation) return;
      let e: TraceEvent;
      try {
        e = JSON.parse(m.data) as TraceEvent;
      } catch {
        return;
      }
      const last = this.runs.lastSeq;
      if (e.seq > last + 1) {
        // A gap can only mean lost frames: re-read from the last applied seq instead of painting a hole.
        es.close();
        this.scheduleReconnect(runId, 0);
        return;
      }
      received++;
      this.runs.push(e);
      this.retryDelay = 500;
      if (TERMINAL.has(e.type)) {
        es.close();
        if (this.es === es) this.es = null;
        this.runs.flush();
        this.connect(runId, e.seq, true);
      }
    };
    const finished = () => {
      es.close();
      if (this.es === es) this.es = null;
      this.runs.setConnection('closed');
      void this.refreshSnapshot(runId).then(() => this.onFinished?.(runId));
    };
    for (const t of LISTENED) es.addEventListener(t, onEvent as EventListener);
    es.onmessage = onEvent;
    es.onopen = () => {
      if (gen === this.generation && !probe) this.runs.setConnection('open');
    };
    es.onerror = () => {
      if (gen !== this.generation) return;
      // A probe after a terminal event that the server closed without sending anything: the run is over.
      if (probe && received === 0) return finished();
      if (es.readyState === EventSource.CLOSED) {
        // The browser gave up (HTTP error, server restarting): retry ourselves from the last seq we have.
        this.es = null;
        if (!isTerminal(this.runs.state.status)) this.scheduleReconnect(runId, this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, 10_000);
      } else {
        this.runs.setConnection('reconnecting'); // EventSource retries on its own with Last-Event-ID
      }
    };
  }

  private scheduleReconnect(runId: string, delay: number) {
    clearTimeout(this.retryTimer);
    this.generation++;
    this.runs.setConnection('reconnecting');
    this.retryTimer = setTimeout(() => {
      if (this.runs.state.runId !== runId) return;
      this.runs.flush();
      this.connect(runId, this.runs.lastSeq);
    }, delay);
  }

  async refreshSnapshot(runId: string) {
    try {
      const run = await api.getRun(runId);
      if (this.runs.state.runId === runId) this.runs.applySnapshot(run);
    } catch {
      /* the event stream remains the source of truth */
    }
  }
}
