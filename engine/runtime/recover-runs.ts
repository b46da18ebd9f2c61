/**
 * Crash recovery: runs whose process stopped (their heartbeat went stale) are marked `interrupted`, which makes them
 * resumable. The status, the failed records of the nodes that were running and `run.interrupted` land in one
 * transaction: a reader never sees the run interrupted with a node still running, and a crash here leaves the run as
 * it was, to be marked again.
 */
import type { EventBus } from '../events/types';
import type { RunRecord, RunStore } from '../store/types';

/** Marks `runs` interrupted (each unless it changed meanwhile); returns the ids it marked. */
export async function markInterrupted(store: RunStore, bus: EventBus, runs: RunRecord[]): Promise<string[]> {
  const done: string[] = [];
  for (const run of runs) {
    const written = await store.transition(
      run.id,
      [run.status],
      {
        status: 'interrupted',
        finishedAt: new Date().toISOString(),
        error: {
          code: 'INTERRUPTED',
          message: 'the process running this run stopped before it finished; resume it to continue',
        },
      },
      ({ nodes, maxSeq }) => ({
        nodes: nodes
          .filter((n) => n.status === 'running')
          .map((n) => ({
            ...n,
            status: 'failed' as const,
            error: { code: 'INTERRUPTED', message: 'interrupted while running' },
          })),
        events: [
          {
            seq: maxSeq + 1,
            runId: run.id,
            ts: new Date().toISOString(),
            type: 'run.interrupted' as const,
            spanId: 'run',
            data: { reason: 'owner process stopped' },
          },
        ],
      }),
    );
    if (!written) continue;
    for (const ev of written.events ?? []) bus.publish(ev);
    done.push(run.id);
  }
  return done;
}
