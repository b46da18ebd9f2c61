// Guarantees: after the process running a run is SIGKILLed, a new process finds the run, marks it `interrupted` (with a
// run.interrupted event) and resumes it to success without executing the nodes that had already succeeded.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { storeKinds, TEST_DATABASE_URL, uniqueSchema, type TestDb } from '../support/databases';
import { createHarness, probeCalls, resetProbes } from '../support/harness';
import { spawnTsx } from '../support/spawn-tsx';
import { until } from '../support/until';

const kinds = await storeKinds();

/** Spawns the crash child and collects its stdout lines. */
const spawnChild = (kind: string, location: string, counterFile: string, engine: string) =>
  spawnTsx('test/support/crash-child.ts', [kind, location], { PROBE_COUNTER_FILE: counterFile, CRASH_ENGINE: engine });

function counts(file: string): Record<string, number> {
  if (!existsSync(file)) return {};
  const out: Record<string, number> = {};
  for (const id of readFileSync(file, 'utf8').split('\n').filter(Boolean)) out[id] = (out[id] ?? 0) + 1;
  return out;
}

const openAt = (kind: 'pglite' | 'postgres', location: string): Promise<Database> =>
  openDatabase(kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location });

const combos = kinds.flatMap((k) => (['dag', 'langgraph'] as const).map((engine) => [k, engine] as const));

describe.each(combos)('crash and restart on %s with the %s engine', (kind, engine) => {
  it(
    'a run whose process was SIGKILLed mid-node is recovered as ' +
      'interrupted and resumed without re-running completed nodes',
    { timeout: 180_000 },
    async () => {
      resetProbes();
      const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-crash-'));
      const counterFile = path.join(scratch, 'probe-calls.txt');
      const location = kind === 'pglite' ? path.join(scratch, 'db') : uniqueSchema('crash');
      const proc = spawnChild(kind, location, counterFile, engine);
      let db: Database | undefined;
      let watcher: Database | undefined;
      let h: Awaited<ReturnType<typeof createHarness>> | undefined;
      try {
        const childPid = Number(await proc.line('PID'));
        const runId = await proc.line('RUN');

        if (kind === 'pglite') {
          // The child holds the data dir; it tells us when p2's success and p3's start are durable.
          expect(await proc.line('P2_DONE')).toBe(runId);
          expect(await proc.line('P3_RUNNING')).toBe(runId);
        } else {
          watcher = await openAt(kind, location);
          const w = new PrismaStore(watcher.prisma, watcher.kind, watcher.sql);
          await until(
            async () => {
              const n = new Map((await w.getNodeRuns(runId)).map((x) => [x.nodeId, x.status]));
              return n.get('p2') === 'succeeded' && n.get('p3') === 'running';
            },
            'p2 succeeded and p3 running in the database',
            60_000,
          );
          // While the owner is alive and heart-beating, another process's recovery must leave the run alone.
          const probeDb = await openAt(kind, location);
          const other = await createHarness(kind, { tdb: { db: probeDb } as TestDb, staleMs: 5_000 });
          try {
            expect(await other.runs.recover()).toEqual([]);
            expect((await other.store.getRun(runId))!.status).toBe('running');
          } finally {
            await other.close();
            await probeDb.close();
          }
        }
        expect(counts(counterFile)).toEqual({ p1: 1, p2: 1, p3: 1 });

        // Crash: kill the process that holds the database, mid-p3.
        process.kill(childPid, 'SIGKILL');
        await proc.exit;
        expect(proc.lines.some((l) => l.startsWith('P3_RUNNING') || kind === 'postgres')).toBe(true);

        // "Restart": open the same database in this process and recover like lib/server/app.ts does.
        db = await openAt(kind, location);
        const tdb = { db, kind, location, reopen: async () => db!, dispose: async () => {} } as TestDb;
        h = await createHarness(kind, { tdb, staleMs: kind === 'postgres' ? 1_000 : undefined });
        const before = (await h.store.getRun(runId))!;
        expect(before.status).toBe('running');
        let recovered: string[];
        if (kind === 'pglite') {
          // single-process store: every running run is an orphan
          recovered = await h.runs.recover(new Date(Date.now() + 1000));
        } else {
          // Multi-process store: the run becomes stale once the dead owner's last heartbeat is older than staleMs.
          recovered = await until(
            async () => {
              const r = await h!.runs.recover();
              return r.length ? r : undefined;
            },
            'recover() to find the stale run',
            30_000,
            100,
          );
        }
        expect(recovered).toEqual([runId]);

        const interrupted = (await h.store.getRun(runId))!;
        expect(interrupted.status).toBe('interrupted');
        expect(interrupted.error?.code).toBe('INTERRUPTED');
        const evBefore = await h.events(runId);
        expect(evBefore.at(-1)?.type).toBe('run.interrupted');
        const snap = Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
        expect(snap.p1.status).toBe('succeeded');
        expect(snap.p2.status).toBe('succeeded');
        expect(snap.p3).toMatchObject({ status: 'failed', attempt: 1, error: { code: 'INTERRUPTED' } });
        expect(snap.p4).toBeUndefined();
        // Recovery is idempotent.
        expect(await h.runs.recover(new Date(Date.now() + 1000))).toEqual([]);

        const resumed = await h.runs.resume(runId);
        expect(resumed.id).toBe(runId);
        await h.runs.waitFor(runId);
        const done = (await h.store.getRun(runId))!;
        expect(done.status).toBe('succeeded');
        expect(done.engine).toBe(engine);
        expect(done.outputs).toEqual({ last: { value: 'p4', calls: 1 } });

        // p1 and p2 ran exactly once in total (in the killed process); p3 and p4 once after the restart.
        expect(counts(counterFile)).toEqual({ p1: 1, p2: 1, p3: 1 });
        expect(Object.fromEntries(probeCalls)).toEqual({ p3: 1, p4: 1 });
        const after = Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
        expect(after.p1).toEqual(snap.p1);
        expect(after.p2).toEqual(snap.p2);
        expect(after.p3).toMatchObject({ status: 'succeeded', attempt: 2 });

        const events: TraceEvent[] = await h.events(runId);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events.slice(0, evBefore.length)).toEqual(evBefore);
        expect(events.filter((e) => e.type === 'run.started').map((e) => e.data.resumed)).toEqual([false, true]);
        expect(events.filter((e) => e.type === 'run.interrupted')).toHaveLength(1);
        expect(
          events
            .slice(evBefore.length)
            .filter((e) => e.type === 'node.started')
            .map((e) => e.nodeId),
        ).toEqual(['p3', 'p4', 'end']);
        expect(events.at(-1)?.type).toBe('run.succeeded');
      } finally {
        proc.killGroup();
        await h?.close().catch(() => {});
        await db?.close().catch(() => {});
        await watcher?.close().catch(() => {});
        if (kind === 'postgres') {
          const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
          await c.connect();
          await c.query(`DROP SCHEMA IF EXISTS "${location}" CASCADE`).catch(() => {});
          await c.end();
        }
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});
