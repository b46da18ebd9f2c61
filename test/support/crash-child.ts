/**
 * A separate process for crash tests (test/engine/crash-restart-resume.test.ts): opens the database, starts a run
 * of start → p1 → p2 → p3 (sleeps 60 s) → p4 → end, and is then SIGKILLed by the test.
 *
 *   npx tsx test/support/crash-child.ts <pglite|postgres> <data dir | schema>
 *   env PROBE_COUNTER_FILE: one line "<nodeId>" is appended per probe execution (in-memory counters die with us).
 *   env CRASH_ENGINE: dag (default) | langgraph.
 *
 * Prints, one per line: `PID <pid>` (this process, the one holding the database), `RUN <runId>`, then
 * `P2_DONE <runId>` once p2's `succeeded` snapshot is in the database and `P3_RUNNING <runId>` once p3's
 * `running` snapshot is. (A PGlite dir cannot be opened by the test while we hold it, so we poll our own store.)
 */
import { appendFileSync } from 'node:fs';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { defineNode } from '@/engine/node-kit/define';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { openDatabase } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { TEST_DATABASE_URL } from './databases';
import { chainGraph, probeNode, probeScript } from './harness';

async function main() {
  const [kind, location] = process.argv.slice(2);
  const counterFile = process.env.PROBE_COUNTER_FILE;
  if ((kind !== 'pglite' && kind !== 'postgres') || !location || !counterFile) {
    console.error(
      'usage: PROBE_COUNTER_FILE=<file> tsx test/support/crash-child.ts <pglite|postgres> <data dir | schema>',
    );
    process.exit(2);
  }
  // Never outlive a test that died without killing us.
  setTimeout(() => process.exit(3), 120_000).unref();
  console.log(`PID ${process.pid}`);

  const db = await openDatabase(
    kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location },
  );
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const countingProbe = defineNode({
    ...probeNode,
    execute: (ctx) => {
      appendFileSync(counterFile, `${ctx.nodeId}\n`);
      return probeNode.execute(ctx);
    },
  });
  probeScript.set('p3', { sleepMs: 60_000 });
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry().register(countingProbe),
    services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
    heartbeatMs: 100,
    executors: { langgraph: createLangGraphExecutor() },
  });

  const wf = await store.createWorkflow({
    id: `wf_crash_${Date.now()}`,
    name: 'crash',
    description: '',
    graph: chainGraph(4),
    engine: 'auto',
  });
  const engine = process.env.CRASH_ENGINE === 'langgraph' ? 'langgraph' : 'dag';
  const { run } = await runs.start({ workflow: wf, inputs: {}, engine });
  console.log(`RUN ${run.id}`);

  let p2Done = false;
  for (;;) {
    const nodes = new Map((await store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status]));
    if (!p2Done && nodes.get('p2') === 'succeeded') {
      p2Done = true;
      console.log(`P2_DONE ${run.id}`);
    }
    if (p2Done && nodes.get('p3') === 'running') {
      console.log(`P3_RUNNING ${run.id}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  // Keep running (p3 sleeps) until the test kills us.
  await runs.waitFor(run.id);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
