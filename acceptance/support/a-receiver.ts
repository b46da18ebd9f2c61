/**
 * A local HTTP receiver that the server under test calls (HTTP nodes, template POSTs), on a reserved port it may
 * reach (HTTP_ALLOWLIST). It records every request and answers as the journey says. Several journeys share
 * `ports.receiver` and files run side by side, so binding waits while another one holds the port instead of failing
 * with EADDRINUSE: hold it only for as long as a journey needs it.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body, parsed when it is JSON. */
  body: unknown;
}

/** Answers one request; may take its time (a slow or hanging upstream). Unset → 200 `{ ok: true }`. */
export type Answerer = (r: Received, res: ServerResponse) => void | Promise<void>;

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  /** Requests whose path starts with `prefix`. */
  to(prefix: string): Received[];
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startReceiver(port: number, answer?: Answerer, waitMs = 240_000): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', async () => {
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // keep the text
      }
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      received.push(r);
      try {
        if (answer) await answer(r, res);
        else json(res, 200, { ok: true });
      } catch (e) {
        if (!res.headersSent) json(res, 599, { receiverError: String(e) });
      }
    });
  });
  const deadline = Date.now() + waitMs;
  for (;;) {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const onError = (e: NodeJS.ErrnoException) => resolve(e);
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve(null);
      });
    });
    if (!err) break;
    if (err.code !== 'EADDRINUSE' || Date.now() > deadline) throw err;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    to: (prefix) => received.filter((r) => r.path.startsWith(prefix)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
