/**
 * Local services and look-ups the group-C journeys share: an HTTP receiver that records every request it gets (for
 * HTTP nodes and an OTLP collector), a wait for a reserved port to be free (another file may still hold it while
 * files run side by side), and a run's whole trace read back over SSE as an outside client replays it.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { Client } from './client';
import { readSse, type SseEvent } from './sse';
import { until } from './runs';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  port: number;
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

type Handler = (r: ReceivedRequest, res: ServerResponse) => void;

const defaultHandler: Handler = (r, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, path: r.path }));
};

/** True once nothing listens on 127.0.0.1:`port`. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Waits until a reserved port is free: another journey file may be using it while files run side by side. */
export function waitPortFree(port: number, timeoutMs = 180_000): Promise<boolean> {
  return until(`port ${port} to be free`, () => portFree(port), timeoutMs, 250);
}

/** An HTTP server on `port` that records each request (method, path, headers, raw body) and answers `handler`. */
export async function startReceiver(port: number, handler: Handler = defaultHandler): Promise<Receiver> {
  await waitPortFree(port);
  const requests: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(r);
      handler(r, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Every trace event of a run, replayed from the start over SSE (the stream ends after the terminal event). */
export async function eventsOf(api: Client, runId: string, stopWhen?: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const res = await readSse(`${api.baseURL}/api/runs/${runId}/events`, {
    headers: { authorization: api.headers.authorization },
    stopWhen,
  });
  if (res.status !== 200) throw new Error(`events of ${runId}: ${res.status} ${res.text ?? ''}`);
  return res.events;
}
