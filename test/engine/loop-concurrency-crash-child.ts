/**
 * A separate process for loop-concurrency-resume-after-a-killed-process.test.ts: opens the database, starts a run of
 * the fetch loop (9 items, concurrency 3) against the test's counting server, and is then SIGKILLed by the test.
 *
 *   npx tsx test/engine/loop-concurrency-crash-child.ts <pglite|postgres> <data dir | schema> <server base URL>
 *
 * Prints `PID <pid>`, `RUN <runId>`, then `FINISHED <i,j,…>` each time the loop's checkpoint (its finished items, as
 * stored) changes. (A PGlite dir cannot be opened by the test while we hold it, so we read our own store.)
 */
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { RunManager } from '@/engine/runtime/run-manager';
import { openDatabase } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { TEST_DATABASE_URL } from '../support/databases';
import { fetchLoopGraph, range } from './loop-concurrency-support';

async function main() {
  const [kind, location, base] = process.argv.slice(2);
  if ((kind !== 'pglite' && kind !== 'postgres') || !location || !base) {
    console.error('usage: tsx test/engine/loop-concurrency-crash-child.ts <pglite|postgres> <dir | schema> <base>');
    process.exit(2);
  }
  setTimeout(() => process.exit(3), 120_000).unref(); // never outlive a test that died without killing us
  console.log(`PID ${process.pid}`);
  const db = await openDatabase(
    kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location },
  );
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry(),
    services: {
      llm: createLlmResolver({}),
      fetch: createGuardedFetch({ allowlist: [new URL(base).host] }),
      secrets: { get: () => undefined },
    },
    heartbeatMs: 100,
    executors: { langgraph: createLangGraphExecutor() },
  });
  const wf = await store.createWorkflow({
    id: `wf_loop_crash_${Date.now()}`,
    name: 'loop crash',
    description: '',
    graph: fetchLoopGraph(base, { concurrency: 3 }),
    engine: 'auto',
  });
  const { run } = await runs.start({ workflow: wf, inputs: { items: range(9) } });
  console.log(`RUN ${run.id}`);
  let last = '';
  for (;;) {
    const cp = await store.getCheckpoint(run.id, 'loop');
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
