// Guarantees (README "Durability of node snapshots"): on PostgreSQL a node's snapshot commit is an asynchronous
// commit, while a commit that carries the run's terminal or waiting status is synchronous (and so flushes every
// snapshot before it); SNAPSHOT_SYNC_COMMIT=1 (the store's `syncSnapshotCommits`, which the app gives it:
// test/config/every-engine-setting-takes-effect-through-the-app.test.ts) makes every snapshot synchronous; either way
// every commit lands. Node commits and the other hot statements on PostgreSQL go through a thread of their own: visible
// at once, answered with their rows, failures keep the database's error.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlRunner } from '@/engine/store/prisma/migrator';
import { PrismaStore, type PrismaStoreOptions } from '@/engine/store/prisma/prisma-store';
import { openTestDb, postgresAvailable, TEST_DATABASE_URL, type TestDb } from '../support/databases';

const hasPg = await postgresAvailable();
let t: TestDb | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

/**
 * Runs a node commit and a terminal commit through the store, each inside an explicit transaction on a client of
 * our own, and reads the synchronous_commit setting the statement left for its transaction's commit (and whether the
 * store marked the write `last`: the write thread then sleeps at once instead of polling for a next write).
 */
async function commitSettings(opts: PrismaStoreOptions = {}): Promise<string[]> {
  t = await openTestDb('postgres');
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${t.location}` });
  await client.connect();
  const seen: string[] = [];
  const inTx = async (sql: string, params: unknown[], last = false) => {
    await client.query('BEGIN');
    await client.query(sql, params);
    seen.push(
      (await client.query(`SELECT current_setting('synchronous_commit') AS s`)).rows[0].s + (last ? ' (last)' : ''),
    );
    await client.query('COMMIT');
    return [];
  };
  const real = t.db.sql;
  const spy: SqlRunner = {
    ...real,
    write: (name, sql, params, o) =>
      name.startsWith('paiflow_commit')
        ? inTx(sql, params, o?.last).then(() => undefined)
        : real.write(name, sql, params, o),
    prepared: (name, sql, params) =>
      name.startsWith('paiflow_commit') ? inTx(sql, params) : real.prepared(name, sql, params),
  };
  try {
    const store = new PrismaStore(t.db.prisma, t.db.kind, spy, opts);
    const wf = await store.createWorkflow({
      id: 'wf_durability',
      name: 'd',
      description: '',
      graph: { nodes: [], edges: [] },
      engine: 'dag',
    });
    const { run } = await store.createRun({
      id: 'run_durability',
      workflowId: wf.id,
      versionId: null,
      engine: 'dag',
      status: 'running',
      inputs: {},
      graph: { nodes: [], edges: [] },
    });
    const now = new Date().toISOString();
    const node = {
      runId: run.id,
      nodeId: 'a',
      type: 'noop',
      status: 'succeeded' as const,
      attempt: 1,
      input: {},
      output: { ok: 1 },
      error: null,
      usage: null,
      startedAt: now,
      finishedAt: now,
      durationMs: 0,
    };
    await store.commit(run.id, {
      nodes: [node],
      events: [
        {
          seq: 1,
          runId: run.id,
          ts: now,
          type: 'node.succeeded',
          nodeId: 'a',
          spanId: 's1',
          parentSpanId: 'r',
          data: {},
        },
      ],
    });
    await store.commit(run.id, {
      events: [{ seq: 2, runId: run.id, ts: now, type: 'run.succeeded', spanId: 'r', data: {} }],
      run: { status: 'succeeded', outputs: { ok: 1 }, finishedAt: now },
    });
    // Both landed, whatever the commit mode.
    expect((await store.getRun(run.id))?.status).toBe('succeeded');
    expect((await store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status])).toEqual([['a', 'succeeded']]);
    expect((await store.getEvents(run.id)).map((e) => e.type)).toEqual(['node.succeeded', 'run.succeeded']);
  } finally {
    await client.end();
  }
  return seen;
}

describe.runIf(hasPg)('node snapshot commits on PostgreSQL', () => {
  it("a node snapshot is an asynchronous commit; the commit with the run's final status is synchronous", async () => {
    expect(await commitSettings()).toEqual(['off', 'on (last)']);
  });

  it('SNAPSHOT_SYNC_COMMIT=1 commits node snapshots synchronously too', async () => {
    expect(await commitSettings({ syncSnapshotCommits: true })).toEqual(['on', 'on (last)']);
  });
});

describe.runIf(hasPg)('PostgreSQL node commits through the write thread', () => {
  it('a write is visible to the next read at once, and a failed one rejects with the database error', async () => {
    t = await openTestDb('postgres');
    await t.db.sql.exec('CREATE TABLE w (id int PRIMARY KEY)');
    for (let i = 0; i < 20; i++) {
      await t.db.sql.write('w_insert', 'INSERT INTO w VALUES ($1)', [i]);
      expect(await t.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM w')).toEqual([{ n: i + 1 }]);
    }
    const err = await t.db.sql.write('w_insert', 'INSERT INTO w VALUES ($1)', [3]).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('w_pkey');
    // Many at once from concurrent runs: all answered.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => t!.db.sql.write('w_insert', 'INSERT INTO w VALUES ($1)', [100 + i])),
    );
    expect(await t.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM w')).toEqual([{ n: 50 }]);
  });

  it(
    'a prepared statement (the run INSERT, the API key lookup) ' +
      "answers with its rows; a failed one with pg's DatabaseError",
    async () => {
      t = await openTestDb('postgres');
      await t.db.sql.exec('CREATE TABLE w (id int PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), doc jsonb)');
      const insert = (id: number) =>
        t!.db.sql.prepared<{ id: number; at: Date; doc: unknown }>(
          'w_ret',
          'INSERT INTO w (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO NOTHING RETURNING id, at, doc',
          [id, JSON.stringify({ n: id })],
        );
      const [row] = await insert(7);
      expect(row.id).toBe(7);
      expect(row.at).toBeInstanceOf(Date);
      expect(row.doc).toEqual({ n: 7 });
      expect(await insert(7)).toEqual([]); // the conflict: no row
      const err = await t.db.sql.prepared('w_bad', 'SELECT 1 / $1::int AS x', [0]).catch((e) => e);
      expect(err).toBeInstanceOf(pg.DatabaseError);
      expect(err.code).toBe('22012');
      expect(err.message).toMatch(/division by zero/);
    },
  );
});

describe('node snapshot commits on the embedded database', () => {
  it('are synchronous (written through to its files before the commit answers)', async () => {
    t = await openTestDb('pglite');
    const store = new PrismaStore(t.db.prisma, t.db.kind, t.db.sql);
    const wf = await store.createWorkflow({
      id: 'wf_durability',
      name: 'd',
      description: '',
      graph: { nodes: [], edges: [] },
      engine: 'dag',
    });
    const { run } = await store.createRun({
      id: 'run_durability',
      workflowId: wf.id,
      versionId: null,
      engine: 'dag',
      status: 'running',
      inputs: {},
      graph: { nodes: [], edges: [] },
    });
    const now = new Date().toISOString();
    await store.commit(run.id, {
      nodes: [
        {
          runId: run.id,
          nodeId: 'a',
          type: 'noop',
          status: 'succeeded',
          attempt: 1,
          input: {},
          output: null,
          error: null,
          usage: null,
          startedAt: now,
          finishedAt: now,
          durationMs: 0,
        },
      ],
    });
    expect((await t.db.sql.query<{ s: string }>(`SELECT current_setting('synchronous_commit') AS s`))[0].s).toBe('on');
    expect((await store.getNodeRuns(run.id)).map((n) => n.nodeId)).toEqual(['a']);
  });
});
