/**
 * Keeps a TimelineModel in step with the run store: it reads on from the last event it folded (the store's event
 * log is replaced on reset, which starts a new model), so each frame's batch of events costs only its own work.
 */
import type { TraceEvent } from '@/components/api/types';
import type { RunStore } from './run-store';
import { TimelineModel } from './timeline-model';

export class TimelineFeed {
  model = new TimelineModel();
  private log: readonly TraceEvent[] | null = null;
  private cursor = 0;

  constructor(private readonly runs: RunStore) {}

  readonly subscribe = (listener: () => void) => this.runs.store.subscribe(listener);

  /** Catches up with the store (idempotent) and returns a key that changes only when the model did. */
  readonly snapshot = (): string => {
    const log = this.runs.events;
    if (log !== this.log) {
      this.model = new TimelineModel();
      this.log = log;
      this.cursor = 0;
    }
    if (this.cursor < log.length) {
      this.model.apply(log.slice(this.cursor));
      this.cursor = log.length;
    }
    return `${this.runs.state.runId ?? ''}:${this.model.version}`;
  };
}
