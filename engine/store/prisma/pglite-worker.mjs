// The embedded database's own thread: PGlite (Postgres compiled to WASM) runs here, so its work — every commit, every
// read — runs beside the event loop instead of on it. The main thread talks to it through pglite-remote.ts: each
// request is a query (extended protocol, PGlite's own parameter serializers), a script, a named prepared statement, or
// a transaction's begin / end; answers are the raw protocol messages, parsed on the main thread with the caller's
// parsers (Prisma brings its own). PGlite's two locks give the same guarantees as in-process: a query outside a
// transaction waits for an open transaction to end; a transaction's own queries run inside it.
// Plain JavaScript: worker_threads loads it by path from every runtime (Next's server, tsx, vitest).
import { workerData } from 'node:worker_threads';
import { PGlite, protocol } from '@electric-sql/pglite';
import { checkInternals, exclusive as exclusiveWith, serializerFor } from './pglite-internals.mjs';
import { serve } from './thread-serve.mjs';

const { serialize } = protocol;
// Postgres's buffer cache, which it touches whole at start: sized for one embedded server (DB_EMBEDDED_BUFFERS_MB).
const buffers = ['-c', `shared_buffers=${workerData.buffersMb}MB`, '-c', 'temp_buffers=2MB', '-c', 'wal_buffers=1MB'];
const pg = await PGlite.create(workerData.dataDir, { startParams: [...PGlite.defaultStartParams, ...buffers] });
checkInternals(pg);
const ready = new Set(); // named prepared statements
const txs = new Map(); // tx id → finish(commit)

const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const exec = (bytes) => pg.execProtocol(bytes, { syncToFs: false }).then((r) => r.messages);

async function guarded(fn) {
  try {
    return await fn();
  } catch (e) {
    await exec(serialize.sync()).catch(() => {}); // back to idle whatever the error left behind
    throw e;
  }
}

/** A parameterised query, as PGlite's query() runs it: values serialized by the parameters' types. */
function runQuery(sql, params) {
  return guarded(async () => {
    const described = await exec(
      concat([serialize.parse({ text: sql }), serialize.describe({ type: 'S' }), serialize.sync()]),
    );
    const types = described.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
    const values = (params ?? []).map((v, i) => {
      if (v === null || v === undefined) return null;
      const s = serializerFor(pg, types[i]);
      return s ? s(v) : v.toString();
    });
    return exec(
      concat([serialize.bind({ values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
    );
  });
}

function runPrepared(name, sql, params) {
  return guarded(async () => {
    if (!ready.has(name)) {
      await exec(concat([serialize.parse({ name, text: sql }), serialize.sync()]));
      ready.add(name);
    }
    const values = params.map((v) =>
      v === null || v === undefined
        ? null
        : typeof v === 'boolean'
          ? v
            ? 't'
            : 'f'
          : v instanceof Date
            ? v.toISOString()
            : String(v),
    );
    return exec(
      concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
  });
}

const runScript = (sql) => guarded(() => exec(concat([serialize.query(sql), serialize.sync()])));

const exclusive = (inTx, fn) => exclusiveWith(pg, inTx, fn);

const ROLLBACK = Symbol('rollback');

async function handle(m) {
  switch (m.op) {
    case 'query':
      return exclusive(!!m.tx, () => runQuery(m.sql, m.params));
    case 'exec':
      return exclusive(!!m.tx, () => runScript(m.sql));
    case 'prepared':
      return exclusive(!!m.tx, async () => {
        let messages;
        try {
          messages = await runPrepared(m.name, m.sql, m.params);
        } catch (e) {
          if (e?.code !== '26000') throw e; // the statement is gone (e.g. DEALLOCATE ALL): prepare it again
          ready.delete(m.name);
          messages = await runPrepared(m.name, m.sql, m.params);
        }
        return m.discard ? null : messages;
      });
    case 'begin':
      return new Promise((begun, failed) => {
        const done = pg.transaction(async () => {
          const commit = await new Promise((finish) => {
            txs.set(m.tx, { finish, done });
            begun(null);
          });
          if (!commit) throw ROLLBACK;
        });
        done.catch((e) => {
          if (e !== ROLLBACK) failed(e);
        });
      });
    case 'end': {
      const t = txs.get(m.tx);
      txs.delete(m.tx);
      if (!t) return null;
      t.finish(m.commit);
      await t.done.catch((e) => {
        if (e !== ROLLBACK) throw e;
      });
      return null;
    }
    case 'arrayTypes':
      return (
        await pg.query(
          'SELECT b.oid, b.typarray FROM pg_catalog.pg_type a ' +
            `LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
      WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid`,
        )
      ).rows;
    case 'close':
      await pg.close();
      return null;
    default:
      throw new Error(`unknown op ${m.op}`);
  }
}

serve(handle, Number(workerData.spinMs ?? 0));
