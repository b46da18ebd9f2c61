/**
 * The outside services of the crash journey, on one local port: `POST <prefix>/charge` answers at once with a
 * receipt numbered by how often it was called (a side effect the run must not repeat), and `POST <prefix>/slow` holds
 * its answer until `release()` (a long step a crash can land in). Every call is recorded with the Idempotency-Key the
 * node sent, so a journey can tell how often each operation reached the outside world.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Hit {
  path: string;
  idempotencyKey: string | null;
  body: string;
}

export interface SlowReceiver {
  hits: Hit[];
  /** Calls of `path` so far. */
  count(path: string): number;
  /** From now on `/slow` answers at once (and the calls held so far are dropped: their callers are gone). */
  release(): void;
  close(): Promise<void>;
}

export async function startSlowReceiver(port: number): Promise<SlowReceiver> {
  const hits: Hit[] = [];
  const held: ServerResponse[] = [];
  let released = false;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      hits.push({ path, idempotencyKey: (req.headers['idempotency-key'] as string) ?? null, body });
      const n = hits.filter((h) => h.path === path).length;
      const json = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (path.endsWith('/charge')) return json({ receipt: `rcpt-${n}` });
      if (path.endsWith('/slow')) {
        if (released) return json({ done: true, call: n });
        held.push(res); // never answered: the step is still in progress when the process running it dies
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    hits,
    count: (path) => hits.filter((h) => h.path === path).length,
    release() {
      released = true;
      for (const res of held.splice(0)) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
