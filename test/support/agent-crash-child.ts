/**
 * A separate process for the agent crash test (test/agent/agent-resumes-after-the-server-is-killed.test.ts): opens the
 * database and starts a run of start → agent → end whose model is the test's scripted server (FAKE_BASE_URL) and
 * whose http_fetch may reach the test's counting target (TARGET_HOST); the test SIGKILLs it mid-round.
 *
 *   FAKE_BASE_URL=… TARGET_URL=… CRASH_ENGINE=dag|langgraph npx tsx test/support/agent-crash-child.ts <kind> <location>
 *
 * Prints `PID <pid>` and `RUN <runId>`.
 */
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { openDatabase } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { agentGraph } from '../agent/support/durable-agent';
import { TEST_DATABASE_URL } from './databases';

async function main() {
  const [kind, location] = process.argv.slice(2);
  const { FAKE_BASE_URL, TARGET_URL } = process.env;
  if ((kind !== 'pglite' && kind !== 'postgres') || !location || !FAKE_BASE_URL || !TARGET_URL) {
    console.error('usage: FAKE_BASE_URL=… TARGET_URL=… tsx test/support/agent-crash-child.ts <pglite|postgres> <loc>');
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
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: FAKE_BASE_URL }),
      fetch: createGuardedFetch({ allowlist: [new URL(TARGET_URL).host] }),
      secrets: { get: () => undefined },
    },
    heartbeatMs: 100,
    executors: { langgraph: createLangGraphExecutor() },
  });
  const wf = await store.createWorkflow({
    id: `wf_agent_crash_${Date.now()}`,
    name: 'agent crash',
    description: '',
    graph: agentGraph(),
    engine: 'auto',
  });
  const engine = process.env.CRASH_ENGINE === 'langgraph' ? 'langgraph' : 'dag';
  const { run } = await runs.start({ workflow: wf, inputs: {}, engine });
  console.log(`RUN ${run.id}`);
  await runs.waitFor(run.id); // the model hangs in round 3 until the test kills us
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
