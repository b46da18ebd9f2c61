// The worker side of a database thread (pglite-worker.mjs, pg-write-worker.mjs): answers each request
// `{ id, op, …args }` from the main thread with `{ id, result }` or `{ id, error }` (the error's message and its
// PostgreSQL fields, so the main thread can rebuild it). Plain JavaScript, loaded by path from every runtime.
//
// After its last request is answered the thread polls for the next one for `spinMs` before it sleeps: waking a
// sleeping thread costs the sender a system call and the request a scheduler wake-up (0.1–0.3 ms on this VM),
// which is the whole budget of a node on a chain. Polling stops at once when nothing comes, and does not start
// after a request marked `last` (a run's final commit): nothing follows it soon, and a polling thread would take the
// core the database server (or the next run) needs.
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';

const FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
];

function errorFields(e) {
  const out = { message: e?.message ?? String(e), name: e?.name };
  for (const k of FIELDS) if (e?.[k] !== undefined) out[k] = e[k];
  out.database = e?.severity !== undefined || e?.code !== undefined;
  return out;
}

/** Serves `handle(request) → Promise<result>` on this thread's port; tells the main thread it is ready. */
export function serve(handle, spinMs = 0) {
  let busy = 0;
  function dispatch(m) {
    busy++;
    handle(m)
      .then(
        (result) => parentPort.postMessage({ id: m.id, result }),
        (e) => parentPort.postMessage({ id: m.id, error: errorFields(e) }),
      )
      .finally(() => {
        if (--busy === 0 && spinMs > 0 && !m.last) poll();
      });
  }
  function poll() {
    const until = performance.now() + spinMs;
    while (performance.now() < until) {
      const next = receiveMessageOnPort(parentPort);
      if (next) return dispatch(next.message);
    }
  }
  parentPort.on('message', dispatch);
  parentPort.postMessage({ id: 0, result: 'ready' });
}
