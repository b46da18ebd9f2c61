/**
 * The child process of the crash harness (test/engine/a-killed-process-resumes-without-re-running-what-
 * succeeded.test.ts), the process the test SIGKILLs mid-run: it opens the test's database, builds a RunManager as
 * the app builds one (in-process bus, the default nodes plus a probe that counts its executions in a file, a 100 ms
 * heartbeat so the test soon sees the owner gone) and starts a run of the crash graph (test/support/crash-graph.ts)
 * on one engine.
 *
 *   PROBE_COUNTER_FILE=… FAKE_BASE_URL=… TARGET_URL=… GATE_URL=… CRASH_ENGINE=dag|langgraph \
 *     npx tsx test/support/crash-child.ts <pglite|postgres> <data dir | schema>
 *
 * Prints `PID <pid>`, `RUN <runId>`, then `STATE <json>` each time what is stored changes: the status of p2 and p3
 * and the loop's finished items (its checkpoint). A PGlite dir cannot be opened by the test while we hold it, so we
 * read our own store; the stored state (not the bus, whose events may precede the write) is what a restart finds.
 */
import { appendFileSync } from 'node:fs';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { defineNode } from '@/engine/node-kit/define';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { RunManager } from '@/engine/runtime/run-manager';
import { openDatabase } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { crashGraph } from './crash-graph';
import { TEST_DATABASE_URL } from './databases';
import { probeNode, probeScript } from './harness';

async function main() {
  const [kind, location] = process.argv.slice(2);
  const { PROBE_COUNTER_FILE: counterFile, FAKE_BASE_URL, TARGET_URL, GATE_URL } = process.env;
  if (
    (kind !== 'pglite' && kind !== 'postgres') ||
    !location ||
    !counterFile ||
    !FAKE_BASE_URL ||
    !TARGET_URL ||
    !GATE_URL
  ) {
    console.error(
      'usage: PROBE_COUNTER_FILE FAKE_BASE_URL TARGET_URL GATE_URL tsx test/support/crash-child.ts <kind> <loc>',
    );
    process.exit(2);
  }
  setTimeout(() => process.exit(3), 120_000).unref(); // never outlive a test that died without killing us
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
  probeScript.set('p3', { hang: true }); // p3 is executing when the test kills us
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry().register(countingProbe),
    services: {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: FAKE_BASE_URL }),
      fetch: createGuardedFetch({ allowlist: [new URL(TARGET_URL).host, new URL(GATE_URL).host] }),
      secrets: { get: () => undefined },
    },
    heartbeatMs: 100,
    executors: { langgraph: createLangGraphExecutor() },
  });
  const engine = process.env.CRASH_ENGINE === 'langgraph' ? 'langgraph' : 'dag';
  const wf = await store.createWorkflow({
    id: `wf_crash_${Date.now()}`,
    name: 'crash',
    description: '',
    graph: crashGraph(GATE_URL, engine === 'langgraph'),
    engine: 'auto',
  });
  const { run } = await runs.start({ workflow: wf, inputs: { items: Array.from({ length: 9 }, (_, i) => i) }, engine });
  console.log(`RUN ${run.id}`);

  let last = '';
  for (;;) {
    const nodes = new Map((await store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status]));
    const cp = engine === 'langgraph' ? await store.getCheckpoint(run.id, 'loop') : null;
    const finished = Object.keys((cp?.state as { done?: Record<string, unknown> } | null)?.done ?? {})
      .map(Number)
      .sort((a, b) => a - b);
    const state = JSON.stringify({ p2: nodes.get('p2'), p3: nodes.get('p3'), finished });
    if (state !== last) console.log(`STATE ${(last = state)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
