/**
 * A separate process for loop-concurrency-resume-after-a-killed-process.test.ts: opens the database, starts a run of
 * the fetch loop (9 items, concurrency 3) against the test's counting server, and is then SIGKILLed by the test.
 *
 *   npx tsx test/engine/loop-concurrency-crash-child.ts <pglite|postgres> <data dir | schema> <server base URL>
 *
 * Prints `PID <pid>`, `RUN <runId>`, then `FINISHED <i,j,…>` each time the loop's checkpoint (its finished items, as
 * stored) changes. (A PGlite dir cannot be opened by the test while we hold it, so we read our own store.)
 */
import { startCrashRun } from '../support/crash-child-run';
import { fetchLoopGraph, range } from './loop-concurrency-support';

async function main() {
  const [kind, location, base] = process.argv.slice(2);
  if ((kind !== 'pglite' && kind !== 'postgres') || !location || !base) {
    console.error('usage: tsx test/engine/loop-concurrency-crash-child.ts <pglite|postgres> <dir | schema> <base>');
    process.exit(2);
  }
  const { store, runId } = await startCrashRun({
    kind,
    location,
    name: 'loop crash',
    graph: fetchLoopGraph(base, { concurrency: 3 }),
    inputs: { items: range(9) },
    fetchHost: new URL(base).host,
  });
  let last = '';
  for (;;) {
    const cp = await store.getCheckpoint(runId, 'loop');
    const done = Object.keys((cp?.state as { done?: Record<string, unknown> } | null)?.done ?? {})
      .map(Number)
      .sort((a, b) => a - b)
      .join(',');
    if (done !== last) console.log(`FINISHED ${(last = done)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
