// Guarantees: the embedded database (PGlite on its own thread) behaves like PGlite in-process for everything the
// store and Prisma rely on — database errors keep their class and code, a transaction is isolated (an outside query
// waits for it) and rolls back on request or on error, prepared statements survive DEALLOCATE ALL, array columns
// parse — while the event loop keeps running during a long query, and the thread answers after a `last` write; its
// buffer cache is the size it is given (DB_EMBEDDED_BUFFERS_MB), not Postgres's 128 MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemotePGlite } from '@/engine/store/prisma/pglite-remote';

let dir: string;
let db: RemotePGlite;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-pglite-thread-'));
  db = await RemotePGlite.create(path.join(dir, 'pglite'));
  await db.exec('CREATE TABLE t (id int PRIMARY KEY, tags text[], doc jsonb)');
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database thread', () => {
  it('answers queries with typed values, arrays and jsonb, in object or array row mode', async () => {
    await db.query('INSERT INTO t VALUES ($1, $2, $3)', [1, ['a', 'b'], JSON.stringify({ x: 1 })]);
    const r = await db.query<{ id: number; tags: string[]; doc: unknown }>(
      'SELECT id, tags, doc FROM t WHERE id = $1',
      [1],
    );
    expect(r.rows).toEqual([{ id: 1, tags: ['a', 'b'], doc: { x: 1 } }]);
    const a = await db.query('SELECT id, tags FROM t', [], { rowMode: 'array' });
    expect(a.rows).toEqual([[1, ['a', 'b']]]);
  });

  it("a database error keeps PGlite's class and its SQLSTATE", async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    // … and the connection is usable afterwards
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it(
    'a transaction is isolated: an outside query waits for it; ' + 'tx.rollback() and a throw both discard its writes',
    async () => {
      const order: string[] = [];
      let outside: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (2)');
        outside = db.query('SELECT count(*)::int AS n FROM t').then((r) => {
          order.push(`outside saw ${(r.rows[0] as { n: number }).n}`);
        });
        await new Promise((r) => setTimeout(r, 50));
        order.push('commit');
      });
      await outside;
      expect(order).toEqual(['commit', 'outside saw 2']);

      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (3)');
        await tx.rollback();
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t (id) VALUES (4)');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect((await db.query('SELECT id FROM t ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    },
  );

  it('a named prepared statement is planned once and prepared again after DEALLOCATE ALL', async () => {
    const sql = 'SELECT id FROM t WHERE id = $1';
    expect(await db.prepared('thread_test_select', sql, [2])).toEqual([{ id: 2 }]);
    await db.exec('DEALLOCATE ALL');
    expect(await db.prepared('thread_test_select', sql, [1])).toEqual([{ id: 1 }]);
  });

  it('a write answers without rows, and its failure still rejects with the database error', async () => {
    expect(await db.write('thread_test_insert', 'INSERT INTO t (id) VALUES ($1) RETURNING id', [7])).toBeUndefined();
    expect((await db.query('SELECT id FROM t WHERE id = 7')).rows).toEqual([{ id: 7 }]);
    const err = await db
      .write('thread_test_insert', 'INSERT INTO t (id) VALUES ($1) RETURNING id', [7])
      .catch((e) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err.code).toBe('23505');
    await db.query('DELETE FROM t WHERE id = 7');
  });

  it(
    'requests that arrive while the thread polls after an answer, ' + 'or after it went to sleep, are all answered',
    async () => {
      const polling = await RemotePGlite.create(path.join(dir, 'pglite-polling'), { spinMs: 50 });
      const sleeping = await RemotePGlite.create(path.join(dir, 'pglite-sleeping'), { spinMs: 0 });
      try {
        for (const d of [polling, sleeping]) {
          await d.exec('CREATE TABLE s (i int)');
          for (let i = 0; i < 20; i++) {
            await d.write('thread_test_s', 'INSERT INTO s VALUES ($1)', [i]);
            if (i % 5 === 0) await new Promise((r) => setTimeout(r, 60)); // past the polling window: the thread sleeps
          }
          // Several at once, while it polls: every one answered with its own result.
          const got = await Promise.all(
            [20, 21, 22].map((i) =>
              d.prepared<{ i: number }>('thread_test_s_ret', 'INSERT INTO s VALUES ($1) RETURNING i', [i]),
            ),
          );
          expect(got).toEqual([[{ i: 20 }], [{ i: 21 }], [{ i: 22 }]]);
          expect((await d.query<{ n: number }>('SELECT count(*)::int AS n FROM s')).rows).toEqual([{ n: 23 }]);
        }
      } finally {
        await polling.close();
        await sleeping.close();
      }
    },
  );

  it("after a write marked `last` (a run's final commit) the thread still answers the next request", async () => {
    // The thread sleeps at once after such a write instead of polling; what that saves in CPU is measured by
    // `npm run bench db-thread` (bench/db-thread-idle.bench.ts), since CPU thresholds fail on a loaded machine.
    const d = await RemotePGlite.create(path.join(dir, 'pglite-last'), { spinMs: 300 });
    try {
      await d.exec('CREATE TABLE l (i int)');
      await d.write('thread_test_l', 'INSERT INTO l VALUES ($1)', [1]);
      await d.write('thread_test_l', 'INSERT INTO l VALUES ($1)', [2], { last: true });
      await new Promise((r) => setTimeout(r, 50)); // asleep by now
      expect((await d.query<{ n: number }>('SELECT count(*)::int AS n FROM l')).rows).toEqual([{ n: 2 }]);
      await d.write('thread_test_l', 'INSERT INTO l VALUES ($1)', [3], { last: true });
      expect(await d.prepared('thread_test_l_sum', 'SELECT sum(i)::int AS s FROM l', [])).toEqual([{ s: 6 }]);
    } finally {
      await d.close();
    }
  });

  it('the event loop keeps running while the database works', async () => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 1);
    const r = await db.query('SELECT count(*)::int AS n FROM generate_series(1, 3000000)');
    clearInterval(timer);
    expect(r.rows).toEqual([{ n: 3000000 }]);
    expect(ticks).toBeGreaterThan(5);
  });

  it('its buffer cache is the size it is given, 32 MB unless told', async () => {
    const shown = async (d: RemotePGlite) =>
      (await d.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0].shared_buffers;
    expect(await shown(db)).toBe('32MB');
    const small = await RemotePGlite.create(path.join(dir, 'small'), { buffersMb: 16 });
    try {
      expect(await shown(small)).toBe('16MB');
    } finally {
      await small.close();
    }
  });
});
