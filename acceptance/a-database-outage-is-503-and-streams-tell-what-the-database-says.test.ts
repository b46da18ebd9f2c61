/**
 * Guarantee, on a real PostgreSQL that is stopped in the middle of a run (a private server, never the shared one):
 * - while the database does not answer, every route — management, sign-in, run events, the published API, the
 *   webhook — answers 503 `DB_UNAVAILABLE` with `Retry-After`, never a 500, and `/api/health` says `down.db`;
 * - an event reaches a live viewer only after it is committed: a step that finishes during the outage is not
 *   announced (nor a failure the database never recorded); what the viewer hears is, seq by seq, what the database
 *   keeps, and a client resuming with `Last-Event-ID` continues that same story;
 * - once the database is back the run is marked interrupted, and a resume finishes it.
 * Runs once, in the PostgreSQL profile (the server here has its own database).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivatePostgres, privatePostgresAvailable } from '../test/support/private-postgres';
import { publishWithKey } from './support/b-published';
import { ownerClient, type Client } from './support/client';
import { acceptance } from './support/context';
import { createWorkflow, node, startRun, until, waitForRun } from './support/runs';
import { freePort, OWNER, startServer, type RunningServer } from './support/server';
import { readSse, type SseEvent } from './support/sse';

const { is } = acceptance();
const enabled = is('postgres') && privatePostgresAvailable('the database outage journey');

/** `POST /step` is held until release(); then it (and every later call) answers `{ done: true }`. */
async function heldStep(port: number) {
  const held: ServerResponse[] = [];
  let released = false;
  let calls = 0;
  const answer = (res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"done":true}');
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      if (released) answer(res);
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    calls: () => calls,
    release() {
      released = true;
      for (const res of held.splice(0)) answer(res);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const pick = (e: any) => ({ seq: e.seq, type: e.type, nodeId: e.nodeId ?? null });

describe.runIf(enabled)('PostgreSQL stopped in the middle of a run', () => {
  let pg: PrivatePostgres;
  let server: RunningServer;
  let step: Awaited<ReturnType<typeof heldStep>>;
  let own: Client;
  let stepPort: number;

  beforeAll(async () => {
    pg = await PrivatePostgres.create();
    stepPort = await freePort();
    step = await heldStep(stepPort);
    server = await startServer({
      profile: 'postgres',
      env: { DATABASE_URL: pg.url, HTTP_ALLOWLIST: `127.0.0.1:${stepPort}`, RUN_STALE_MS: '2000' },
    });
    own = await ownerClient(server.baseURL);
  }, 240_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await step?.close();
    await pg?.destroy();
  });

  it('answers 503 DB_UNAVAILABLE everywhere, tells live viewers only what was stored, and resumes after', async () => {
    const published = await publishWithKey(own, `Outage published ${Date.now()}`, {
      nodes: [node('start', 'start'), node('end', 'end', { outputs: [{ name: 'ok', value: 'yes' }] }, 200)],
      edges: [{ id: 'e1', source: 'start', target: 'end' }],
    });
    const hook = await own.expectStatus(
      own.post(`/api/workflows/${published.workflowId}/triggers`, { type: 'webhook', auth: { type: 'hmac' } }),
      201,
    );
    const workflowId = await createWorkflow(own, `Outage ${Date.now()}`, {
      nodes: [
        node('start', 'start'),
        node('step', 'http', { method: 'POST', url: `http://127.0.0.1:${stepPort}/step`, timeoutMs: 120_000 }, 200),
        node('end', 'end', { outputs: [{ name: 'done', value: '{{step.output.body.done}}' }] }, 400),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'step' },
        { id: 'e2', source: 'step', target: 'end' },
      ],
    });
    const runId = await startRun(own, workflowId);

    // A viewer follows the run live from the start, until the stream ends.
    const live: SseEvent[] = [];
    const following = readSse(`${server.baseURL}/api/runs/${runId}/events`, {
      headers: own.headers,
      timeoutMs: 180_000,
      stopWhen: (e) => {
        live.push(e);
        return false;
      },
    });
    await until('the run to call its step', async () => step.calls() === 1);
    await until('the step to be announced live', async () => live.some((e) => e.json?.nodeId === 'step'));

    await pg.stop();

    // Every kind of route, as each kind of client calls it.
    const key = { authorization: `Bearer ${published.key}` };
    const calls: Array<[string, () => Promise<{ status: number; headers: Headers; text: string; body: any }>]> = [
      ['GET /api/workflows', () => own.get('/api/workflows')],
      ['POST /api/workflows', () => own.post('/api/workflows', { name: 'during the outage' })],
      ['GET /api/runs', () => own.get('/api/runs')],
      ['GET /api/runs/:id', () => own.get(`/api/runs/${runId}`)],
      ['GET /api/runs/:id/events', () => own.get(`/api/runs/${runId}/events`)],
      ['POST /api/auth/login', () => own.post('/api/auth/login', { email: OWNER.email, password: OWNER.password })],
      ['POST /api/v1/workflows/:slug/run', () => own.post(`/api/v1/workflows/${published.slug}/run`, {}, key)],
      ['POST /api/hooks/:token', () => own.post(hook.path, { any: 'thing' })],
    ];
    for (const [label, call] of calls) {
      const a = await call();
      expect(a.status, `${label}: ${a.text.slice(0, 500)}`).toBe(503);
      expect(a.body?.error?.code, label).toBe('DB_UNAVAILABLE');
      expect(Number(a.headers.get('retry-after')), label).toBeGreaterThan(0);
    }
    const health = await fetch(`${server.baseURL}/api/health`);
    expect(health.status).toBe(503);
    expect((await health.json()).down.db).toBeTruthy();

    // The step finishes while the database is down: its success cannot be stored, so nobody is told about it.
    step.release();
    await new Promise((r) => setTimeout(r, 3000));
    const toldDuringOutage = live.map((e) => e.json);
    expect(toldDuringOutage.map(pick)).not.toContainEqual(
      expect.objectContaining({ type: 'node.succeeded', nodeId: 'step' }),
    );
    expect(toldDuringOutage.some((e) => ['run.failed', 'run.succeeded'].includes(e.type))).toBe(false);

    await pg.start();
    // Back: the run is marked interrupted (its owner could not record its end), and the viewer hears exactly that.
    const interrupted = await waitForRun(own, runId, ['interrupted'], 90_000);
    const answer = await following;
    const heard = answer.events.map((e) => e.json);
    expect(heard.at(-1)).toMatchObject({ type: 'run.interrupted' });
    const stored = (await readSse(`${server.baseURL}/api/runs/${runId}/events`, { headers: own.headers })).events.map(
      (e) => e.json,
    );
    expect(heard.map(pick)).toEqual(stored.map(pick));
    expect(answer.events.map((e) => Number(e.id))).toEqual(heard.map((e) => e.seq));
    expect(interrupted.nodes.find((n: any) => n.nodeId === 'step')?.status).not.toBe('succeeded');

    // A resume finishes the run; a client that reconnects with Last-Event-ID gets the rest of the same story.
    await own.expectStatus(own.post(`/api/runs/${runId}/resume`, {}), 202);
    const rest = await readSse(`${server.baseURL}/api/runs/${runId}/events`, {
      headers: { ...own.headers, 'last-event-id': String(heard.at(-1).seq) },
      timeoutMs: 90_000,
    });
    const after = rest.events.map((e) => e.json);
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => heard.at(-1).seq + i + 1));
    expect(after.at(-1)).toMatchObject({ type: 'run.succeeded', data: { outputs: { done: true } } });
    expect((await waitForRun(own, runId)).status).toBe('succeeded');
  });
});
