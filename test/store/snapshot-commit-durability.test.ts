// Guarantees (README "Durability of node snapshots"): on PostgreSQL a node's snapshot commit is an asynchronous
// commit on connections of its own, while a commit that carries the run's terminal or waiting status is synchronous
// (and so flushes every snapshot before it); SNAPSHOT_SYNC_COMMIT=1 makes every snapshot synchronous.
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlRunner } from '@/engine/store/prisma/migrator';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import { openTestDb, postgresAvailable, type TestDb } from '../support/databases';

const hasPg = await postgresAvailable();
let t: TestDb | undefined;
afterEach(async () => {
  delete process.env.SNAPSHOT_SYNC_COMMIT;
  await t?.dispose();
  t = undefined;
});

/** The synchronous_commit setting a statement sent through `write` and through `prepared` runs under. */
async function settings(sql: SqlRunner): Promise<{ write: string; prepared: string }> {
  await sql.exec('CREATE TABLE probe (via text, setting text)');
  await sql.write('probe_w', `INSERT INTO probe SELECT 'write', current_setting('synchronous_commit')`, []);
  await sql.prepared('probe_p', `INSERT INTO probe SELECT 'prepared', current_setting('synchronous_commit')`, []);
  const rows = await sql.query<{ via: string; setting: string }>('SELECT via, setting FROM probe');
  return Object.fromEntries(rows.map((r) => [r.via, r.setting])) as { write: string; prepared: string };
}

describe.runIf(hasPg)('node snapshot commits on PostgreSQL', () => {
  it('node snapshots are asynchronous commits; everything else stays synchronous', async () => {
    t = await openTestDb('postgres');
    expect(await settings(t.db.sql)).toEqual({ write: 'off', prepared: 'on' });
  });

  it('SNAPSHOT_SYNC_COMMIT=1 commits node snapshots synchronously too', async () => {
    process.env.SNAPSHOT_SYNC_COMMIT = '1';
    t = await openTestDb('postgres');
    expect(await settings(t.db.sql)).toEqual({ write: 'on', prepared: 'on' });
  });
});

describe('which commits may be asynchronous', () => {
  it('a node snapshot goes through write; a commit carrying the run\'s final status through prepared, and both land', async () => {
    t = await openTestDb(hasPg ? 'postgres' : 'pglite');
    const calls: string[] = [];
    const real = t.db.sql;
    const spy: SqlRunner = {
      ...real,
      write: (name, sql, params) => { calls.push(`write ${name}`); return real.write(name, sql, params); },
      prepared: (name, sql, params) => { calls.push(`prepared ${name}`); return real.prepared(name, sql, params); },
    };
    const store = new PrismaStore(t.db.prisma, t.db.kind, spy);
    const wf = await store.createWorkflow({ id: 'wf_durability', name: 'd', description: '', graph: { nodes: [], edges: [] }, engine: 'dag' });
    const { run } = await store.createRun({ id: 'run_durability', workflowId: wf.id, versionId: null, engine: 'dag', status: 'running', inputs: {}, graph: { nodes: [], edges: [] } });
    calls.length = 0;
    const now = new Date().toISOString();
    const node = { runId: run.id, nodeId: 'a', type: 'noop', status: 'succeeded' as const, attempt: 1, input: {}, output: { ok: 1 }, error: null, usage: null, startedAt: now, finishedAt: now, durationMs: 0 };
    await store.commit(run.id, { nodes: [node], events: [{ seq: 1, runId: run.id, ts: now, type: 'node.succeeded', nodeId: 'a', spanId: 's1', parentSpanId: 'r', data: {} }] });
    await store.commit(run.id, { events: [{ seq: 2, runId: run.id, ts: now, type: 'run.succeeded', spanId: 'r', data: {} }], run: { status: 'succeeded', outputs: { ok: 1 }, finishedAt: now } });
    expect(calls).toEqual(['write paiflow_commit', 'prepared paiflow_commit_run']);
    expect((await store.getRun(run.id))?.status).toBe('succeeded');
    expect((await store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status])).toEqual([['a', 'succeeded']]);
    expect((await store.getEvents(run.id)).map((e) => e.type)).toEqual(['node.succeeded', 'run.succeeded']);
  });
});
