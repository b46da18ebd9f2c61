// Guarantees: when the process running a parallel loop is SIGKILLed with some items finished and others in flight, a
// new process recovers the run as interrupted and resumes it: the items that had finished (in the loop's checkpoint)
// are not sent again, the ones in flight and the unstarted ones are, and the results are whole and in input order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { storeKinds, TEST_DATABASE_URL, uniqueSchema, type TestDb } from '../support/databases';
import { createHarness, type Harness } from '../support/harness';
import { spawnTsx } from '../support/spawn-tsx';
import { until } from '../support/until';
import { expectedResults, range, startGateServer, type GateServer } from './loop-concurrency-support';

const kinds = await storeKinds();

let gate: GateServer;
beforeAll(async () => {
  gate = await startGateServer();
});
afterAll(async () => gate.close());

describe.each(kinds)('a parallel loop whose process was killed, on %s', (kind) => {
  it('resumes in a new process without sending a finished item again', { timeout: 180_000 }, async () => {
    gate.reset();
    const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-loop-crash-'));
    const location = kind === 'pglite' ? path.join(scratch, 'db') : uniqueSchema('loopcrash');
    const proc = spawnTsx('test/engine/loop-concurrency-crash-child.ts', [kind, location, gate.base], {});
    let db: Database | undefined;
    let h: Harness | undefined;
    try {
      const childPid = Number(await proc.line('PID'));
      const runId = await proc.line('RUN');
      // Items 0–3 finish, each stored in the loop's checkpoint before the next is released; 4–6 are then in flight.
      for (const item of [0, 1, 2, 3]) {
        await until(() => gate.held.includes(item), `item ${item} held`, 60_000);
        gate.release(item);
        await until(
          () => proc.lines.some((l) => l.startsWith('FINISHED ') && l.slice(9).split(',').includes(String(item))),
          `item ${item} stored as finished`,
          60_000,
        );
      }
      await until(() => gate.held.length === 3, 'items 4, 5 and 6 in flight');
      expect([...gate.held].sort()).toEqual([4, 5, 6]);

      process.kill(childPid, 'SIGKILL');
      await proc.exit;

      db = await openDatabase(
        kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location },
      );
      const tdb = { db, kind, location, reopen: async () => db!, dispose: async () => {} } as TestDb;
      h = await createHarness(kind, {
        tdb,
        staleMs: kind === 'postgres' ? 1_000 : undefined,
        fetch: createGuardedFetch({ allowlist: [gate.host] }),
      });
      const recovered =
        kind === 'pglite'
          ? await h.runs.recover(new Date(Date.now() + 1000))
          : await until(
              async () => {
                const r = await h!.runs.recover();
                return r.length ? r : undefined;
              },
              'recover() to find the stale run',
              30_000,
              100,
            );
      expect(recovered).toEqual([runId]);
      expect((await h.store.getRun(runId))!.status).toBe('interrupted');

      gate.hold = false;
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      const done = (await h.store.getRun(runId))!;
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.outputs).toEqual({ results: expectedResults(9) });
      expect(range(9).map((i) => gate.completed.get(i))).toEqual(range(9).map(() => 1));
      expect(range(9).map((i) => gate.arrivals.get(i))).toEqual([1, 1, 1, 1, 2, 2, 2, 1, 1]);
    } finally {
      proc.killGroup();
      await h?.close().catch(() => {});
      await db?.close().catch(() => {});
      if (kind === 'pglite') rmSync(scratch, { recursive: true, force: true });
      else {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${location}" CASCADE`).catch(() => {});
        await c.end();
      }
    }
  });
});
