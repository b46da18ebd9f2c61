/**
 * Guarantees: on the production server (`npm start`, server.mjs), the published API answers outside apps exactly as
 * its contract says — sync outputs, SSE stream with contiguous seq, run reads by the same key, 401 with a challenge,
 * CORS on every answer — while the rest of the API (and any method a v1 route does not have) is still Next's.
 */
import { expect, test } from '@playwright/test';

const GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'name', type: 'string', required: true }] } },
    },
    {
      id: 'greet',
      type: 'template',
      position: { x: 200, y: 0 },
      data: { config: { template: 'Hi {{inputs.name}}', format: 'text' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 400, y: 0 },
      data: { config: { outputs: [{ name: 'greeting', value: '{{greet.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'greet' },
    { id: 'e2', source: 'greet', target: 'end' },
  ],
};

test('an outside app calls a published workflow: sync, stream, run read, errors', async ({ request, baseURL }) => {
  const wf = await (
    await request.post('/api/workflows', { data: { name: `E2E published ${Date.now()}`, graph: GRAPH } })
  ).json();
  const pub = await request.post(`/api/workflows/${wf.id}/publish`);
  expect(pub.status()).toBe(201);
  const { endpoint, slug } = await pub.json();
  expect(endpoint).toBe(`${baseURL}/api/v1/workflows/${slug}/run`);
  const { key } = await (await request.post(`/api/workflows/${wf.id}/api-keys`, { data: { name: 'e2e' } })).json();
  const auth = { authorization: `Bearer ${key}` };

  // Plain fetch, as an app would: no cookies, no Playwright request context.
  const sync = await fetch(endpoint, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', origin: 'https://app.example' },
    body: JSON.stringify({ inputs: { name: 'Ada' } }),
  });
  expect(sync.status).toBe(200);
  expect(sync.headers.get('access-control-allow-origin')).toBe('*');
  const body = await sync.json();
  expect(body).toMatchObject({ status: 'succeeded', version: 1, outputs: { greeting: 'Hi Ada' } });
  expect(sync.headers.get('x-run-id')).toBe(body.runId);

  const run = await fetch(`${baseURL}/api/v1/runs/${body.runId}`, { headers: auth });
  expect(run.status).toBe(200);
  expect(await run.json()).toMatchObject({ id: body.runId, status: 'succeeded', outputs: { greeting: 'Hi Ada' } });

  const stream = await fetch(endpoint, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { name: 'Bo' }, mode: 'stream' }),
  });
  expect(stream.headers.get('content-type')).toContain('text/event-stream');
  const events = (await stream.text())
    .split('\n\n')
    .filter((b) => b.includes('data:'))
    .map(
      (b) =>
        JSON.parse(
          b
            .split('\n')
            .find((l) => l.startsWith('data:'))!
            .slice(5),
        ) as { seq: number; type: string },
    );
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.type).toBe('run.succeeded');

  const noKey = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(noKey.status).toBe(401);
  expect(noKey.headers.get('www-authenticate')).toBe('Bearer realm="paiflow"');
  expect((await noKey.json()).error.code).toBe('UNAUTHORIZED');

  const badJson = await fetch(endpoint, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"inputs":',
  });
  expect(badJson.status).toBe(400);

  const preflight = await fetch(endpoint, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

  // A method the route does not have is Next's answer, as before.
  expect((await fetch(endpoint, { method: 'DELETE', headers: auth })).status).toBe(405);
  expect((await fetch(`${baseURL}/api/v1/openapi-nowhere`)).status).toBe(404);
});

test('DNS rebinding: a request naming another host is refused with a JSON 421, ours and IP literals pass', async ({
  baseURL,
}) => {
  const { request: httpRequest } = await import('node:http');
  const url = new URL(`${baseURL}/api/health`);
  const get = (host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { hostname: url.hostname, port: url.port, path: url.pathname, headers: { host } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const evil = await get('rebind.attacker.example');
  expect(evil.status).toBe(421);
  expect(JSON.parse(evil.body).error.code).toBe('HOST_NOT_ALLOWED');
  expect((await get(`localhost:${url.port}`)).status).toBe(200);
  expect((await get(url.host)).status).toBe(200);
});
