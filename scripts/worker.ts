/**
 * A queue-mode worker process: `npm run worker` (or forked by the app with WORKERS=n). Takes run jobs from the
 * BullMQ queue in Redis and executes them with the same services as the app (lib/server/app.ts, role `worker`).
 *
 * Needs DATABASE_URL (PostgreSQL; the embedded PGlite store is single-process) and REDIS_URL. Settings: see
 * engine/config/variables.ts (WORKER_CONCURRENCY, QUEUE_WORKFLOW_CONCURRENCY, QUEUE_LOCK_MS, RUN_STALE_MS, ...).
 * PAIFLOW_EXTRA_NODES: comma-separated module paths whose `nodes` export (NodeDefinition[]) is registered too
 * (custom node types; the tests' probe nodes).
 *
 * SIGTERM/SIGINT (or the parent app going away): stop taking jobs, give running runs WORKER_SHUTDOWN_GRACE_MS to
 * finish, then exit. Runs still executing are NOT cancelled: their job locks lapse and another worker resumes them.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NodeDefinition } from '@/engine/node-kit/define';
import { WORKER_READY_MESSAGE } from '@/engine/queue/worker-processes';
import { createApp } from '@/lib/server/app';
import { loadSettings } from '@/engine/config/settings';

// PaiFlow's own files (migrations, database-thread scripts) are found from here, whatever the working directory
// (engine/config/app-root.ts reads PAIFLOW_ROOT; set before anything reads the settings, as server.mjs does).
process.env.PAIFLOW_ROOT ||= path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  // Every variable is validated first: a bad value stops the worker with INVALID_CONFIG naming it (see the catch).
  const settings = loadSettings();
  const app = await createApp(undefined, { role: 'worker' });
  for (const mod of settings.PAIFLOW_EXTRA_NODES) {
    const m = (await import(pathToFileURL(path.resolve(mod)).href)) as {
      nodes?: NodeDefinition[];
      default?: { nodes?: NodeDefinition[] };
    };
    for (const node of m.nodes ?? m.default?.nodes ?? []) app.registry.register(node);
  }
  const queue = app.queue!;
  await queue.start(app.runs);
  const c = queue.config;
  console.log(
    `[paiflow worker ${process.pid}] taking runs (concurrency ${c.workerConcurrency}` +
      (c.workflowConcurrency ? `, per workflow ${c.workflowConcurrency}` : '') +
      (c.globalConcurrency ? `, global ${c.globalConcurrency}` : '') +
      `) owner ${app.runs.ownerId}`,
  );
  process.send?.({ type: WORKER_READY_MESSAGE, pid: process.pid, ownerId: app.runs.ownerId });

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    const worker = queue.worker!;
    // Stop taking jobs and let running ones finish, within the grace period.
    const drained = worker.close(false).then(() => true);
    const graceOver = new Promise<false>((r) => setTimeout(() => r(false), c.shutdownGraceMs).unref());
    const clean = await Promise.race([drained, graceOver]);
    if (clean && worker.active() === 0) {
      await app.close().catch(() => {});
      console.log(`[paiflow worker ${process.pid}] stopped (${why})`);
      process.exit(0);
    }
    // Leave the rest to another worker: exiting without aborting keeps them resumable (not cancelled).
    console.log(
      `[paiflow worker ${process.pid}] exiting with ${worker.active()} ` +
        `run(s) still executing (${why}); another worker resumes them`,
    );
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('disconnect', () => void shutdown('parent gone'));
}

main().catch((e) => {
  console.error(`[paiflow worker ${process.pid}] cannot start: ${(e as Error).message}`);
  process.exit(1);
});
