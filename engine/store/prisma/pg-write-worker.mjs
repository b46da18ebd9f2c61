// PostgreSQL's hot statements — node snapshot commits (SqlRunner.write), the run INSERT and the API key lookup
// (SqlRunner.prepared) — on a thread of their own (database.ts): the main thread hands a statement over with one
// message to this thread, which polls for it (thread-serve.mjs), instead of building the protocol messages, paying
// the socket write and the database server's wake-up itself. Named prepared statements, on a pool of its own
// connections; `prepared` answers with the rows, `write` without them.
import { workerData } from 'node:worker_threads';
import pg from 'pg';
import { serve } from './thread-serve.mjs';

const pool = new pg.Pool({
  connectionString: workerData.connectionString,
  max: workerData.max,
  ...(workerData.options ? { options: workerData.options } : {}),
});
pool.on('error', () => {
  /* idle client errors surface on the next query */
});

serve(
  async (m) => {
    switch (m.op) {
      case 'write':
        await pool.query({ name: m.name, text: m.sql, values: m.params });
        return null;
      case 'prepared':
        return (await pool.query({ name: m.name, text: m.sql, values: m.params })).rows;
      case 'close':
        await pool.end();
        return null;
      default:
        throw new Error(`unknown op ${m.op}`);
    }
  },
  Number(workerData.spinMs ?? 0),
);
