/**
 * The common start of a crash test's child process (the process the test SIGKILLs mid-run, to check what a restart
 * resumes): a timer so it never outlives a test that died without killing it, `PID <pid>` printed, the test's
 * database opened (a PGlite dir or a PostgreSQL schema), a RunManager on it built as the app builds one
 * (in-process bus, the default nodes, a 100 ms heartbeat so the test soon sees the owner gone), and a run of
 * `graph` started, `RUN <runId>` printed. The child then does what its test watches for.
 */
import type { Graph } from '@/engine/graph/schema';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { createLlmResolver, type LlmEnv } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createLangGraphExecutor } from '@/engine/runtime/langgraph-executor';
import { RunManager } from '@/engine/runtime/run-manager';
import { openDatabase } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { TEST_DATABASE_URL } from './databases';

export async function startCrashRun(opts: {
  kind: 'pglite' | 'postgres';
  /** The PGlite data dir or the PostgreSQL schema the test reads afterwards. */
  location: string;
  /** The workflow's name; its id is `wf_<name>_<time>`. */
  name: string;
  graph: Graph;
  inputs?: Record<string, unknown>;
  engine?: 'dag' | 'langgraph';
  /** The model's settings (e.g. the test's scripted OpenAI-compatible server). */
  llm?: LlmEnv;
  /** The one host http nodes may reach: the test's own server on loopback. */
  fetchHost: string;
}) {
  setTimeout(() => process.exit(3), 120_000).unref(); // never outlive a test that died without killing us
  console.log(`PID ${process.pid}`);
  const db = await openDatabase(
    opts.kind === 'pglite' ? { dataDir: opts.location } : { databaseUrl: TEST_DATABASE_URL, schema: opts.location },
  );
  const store = new PrismaStore(db.prisma, db.kind, db.sql);
  const runs = new RunManager({
    store,
    workflows: store,
    bus: new InProcessEventBus(),
    registry: createDefaultRegistry(),
    services: {
      llm: createLlmResolver(opts.llm ?? {}),
      fetch: createGuardedFetch({ allowlist: [opts.fetchHost] }),
      secrets: { get: () => undefined },
    },
    heartbeatMs: 100,
    executors: { langgraph: createLangGraphExecutor() },
  });
  const wf = await store.createWorkflow({
    id: `wf_${opts.name.replace(/\W+/g, '_')}_${Date.now()}`,
    name: opts.name,
    description: '',
    graph: opts.graph,
    engine: 'auto',
  });
  const { run } = await runs.start({ workflow: wf, inputs: opts.inputs ?? {}, engine: opts.engine });
  console.log(`RUN ${run.id}`);
  return { store, runs, runId: run.id };
}
