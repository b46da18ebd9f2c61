/**
 * Guarantee: once a request is answered, the server keeps nothing of it. Under sustained load the production server
 * kept every request it had served (the Request, its response and socket objects, ~13 KB each) until its heap ran
 * out: route() kept the Request in an async-local store, and on Node 20 promises made while a handler runs (a web
 * stream's closed-promise) outlive the request and hold that store. Shown here by serving requests through the
 * production server's bridge (lib/http/node-bridge.mjs) to a route() handler over a real socket, then forcing garbage
 * collection and counting the Requests still alive.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import { route } from '@/lib/http/errors';
import { serveWithHandler } from '@/lib/http/node-bridge.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const served: WeakRef<Request>[] = [];
const handler = route(async (req: Request) => {
  served.push(new WeakRef(req));
  const body = (await req.json()) as { n: number };
  if (body.n % 10 === 0) throw new PaiError('TEN', 'a multiple of ten');
  return Response.json({ n: body.n });
});

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => void serveWithHandler(handler, {}, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('keeps none of 1,000 answered requests, answers and errors alike', async () => {
  for (let batch = 0; batch < 50; batch++)
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const n = batch * 20 + i;
        const res = await fetch(url, { method: 'POST', body: JSON.stringify({ n }) });
        expect(res.status).toBe(n % 10 === 0 ? 400 : 200);
        await res.text();
      }),
    );
  expect(served).toHaveLength(1000);
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  const alive = served.filter((ref) => ref.deref() !== undefined).length;
  // A handful may still be on their way out (a keep-alive socket's last request).
  expect(alive).toBeLessThan(25);
});
