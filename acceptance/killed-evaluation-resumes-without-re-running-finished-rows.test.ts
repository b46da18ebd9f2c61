/**
 * Guarantee: an evaluation whose server is killed (kill -9) in the middle finishes after a restart without running
 * any finished row again. Rows scored before the crash keep their run and scores (their outside call happened once),
 * rows whose run the crash cut short resume that same run, the rest start once; every row has one run with trigger
 * `evaluation` — on the embedded database (the process restarted at once takes the evaluation over at start-up, though
 * the dead process's claim is far younger than the stale age: one process holds the data dir, so every claim in it is
 * a dead one's) and on PostgreSQL (another process takes over a claim once it went stale, retrying until it has).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient, type Client } from './support/client';
import { acceptance } from './support/context';
import { freePort, startServer, type RunningServer } from './support/server';
import { chain, createWorkflow, node, until } from './support/runs';

const { profile, is } = acceptance();

const ROWS = 10;
/** The receiver answers this many calls at once, then holds every call until released. */
const ANSWERED_BEFORE_THE_CRASH = 6;

interface Receiver {
  calls: Array<{ message: string; idempotencyKey: string | null }>;
  release(): void;
  close(): Promise<void>;
}

/** `POST /check` echoes the message back: at once for the first calls, then only after `release()`. */
async function startReceiver(port: number): Promise<Receiver> {
  const calls: Receiver['calls'] = [];
  const held: ServerResponse[] = [];
  let released = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const message = (JSON.parse(body || '{}') as { message?: string }).message ?? '';
      calls.push({ message, idempotencyKey: (req.headers['idempotency-key'] as string) ?? null });
      if (!released && calls.length > ANSWERED_BEFORE_THE_CRASH) return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ checked: message.toUpperCase() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    calls,
    release() {
      released = true;
      for (const res of held.splice(0)) res.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function checkGraph(port: number) {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }] }),
      node(
        'check',
        'http',
        {
          method: 'POST',
          url: `http://127.0.0.1:${port}/check`,
          bodyType: 'json',
          body: '{"message":"{{inputs.message}}"}',
          timeoutMs: 600_000,
        },
        200,
      ),
      node('end', 'end', { outputs: [{ name: 'checked', value: '{{check.output.body.checked}}' }] }, 400),
    ],
    edges: chain('start', 'check', 'end'),
  };
}

describe.skipIf(is('queue'))(`kill -9 of the ${profile} server in the middle of an evaluation`, () => {
  let server: RunningServer | undefined;
  let receiver: Receiver;
  let own: Client;
  let evaluationId: string;
  let workflowId: string;
  let before: any;

  beforeAll(async () => {
    // A port of its own, not a reserved one: the crash journey holds `ports.spare` while both run in parallel, and
    // this journey's own server is told about this port at start-up.
    const port = await freePort();
    receiver = await startReceiver(port);
    // PostgreSQL: short stale ages, so that the take-over happens within the test's patience. Embedded: a stale age
    // far longer than the restart, so the restart is a quick one — the claim it finds is young, and it must take over.
    const staleMs = is('embedded') ? '600000' : '3000';
    server = await startServer({
      profile,
      env: { HTTP_ALLOWLIST: `127.0.0.1:${port}`, RUN_STALE_MS: '3000', EVALUATION_STALE_MS: staleMs },
    });
    own = await ownerClient(server.baseURL);
    workflowId = await createWorkflow(own, `Checks ${Date.now()}`, checkGraph(port));
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      inputs: { message: `row ${i} 第${i}行` },
      expected: { checked: `ROW ${i} 第${i}行` },
    }));
    const ds = await own.expectStatus(own.post('/api/datasets', { name: '检查', rows }), 201);
    const started = await own.expectStatus(
      own.post(`/api/workflows/${workflowId}/evaluations`, {
        datasetId: ds.id,
        scorers: [{ name: 'checked', type: 'exact', field: 'checked' }],
        concurrency: 2,
      }),
      202,
    );
    evaluationId = started.evaluationId;
    // Six rows scored, two rows' runs inside the held call (and both rows marked running, which the server records
    // beside the run's first steps, not before them): then the crash.
    before = await until(
      'six rows scored and two in flight',
      async () => {
        const ev = await own.expectStatus(own.get(`/api/evaluations/${evaluationId}`), 200);
        const inFlight = ev.rows.filter((r: any) => r.status === 'running').length;
        return ev.progress.done === ANSWERED_BEFORE_THE_CRASH &&
          inFlight === 2 &&
          receiver.calls.length === ANSWERED_BEFORE_THE_CRASH + 2
          ? ev
          : null;
      },
      120_000,
    );
    await server.kill('SIGKILL');
    receiver.release();
    server = await server.restart();
  }, 300_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await receiver?.close();
  });

  it('finishes every row, keeping the rows scored before the crash as they were', async () => {
    const ev = await until(
      'the evaluation to finish after the restart',
      async () => {
        const e = await own.expectStatus(own.get(`/api/evaluations/${evaluationId}`), 200);
        return ['succeeded', 'failed', 'cancelled'].includes(e.status) ? e : null;
      },
      180_000,
      500,
    );
    expect(ev.status, server!.log().slice(-4000)).toBe('succeeded');
    expect(ev.progress).toEqual({ total: ROWS, done: ROWS, running: 0, pending: 0 });
    expect(ev.summary.checked).toEqual({ mean: 1, passRate: 1 });
    const scoredBefore = before.rows.filter((r: any) => r.status === 'scored');
    const inFlight = before.rows.filter((r: any) => r.status === 'running');
    expect(scoredBefore).toHaveLength(ANSWERED_BEFORE_THE_CRASH);
    expect(inFlight).toHaveLength(2);
    for (const r of scoredBefore) expect(ev.rows[r.index]).toEqual(r);
    // The rows cut short resumed their own run; no row has a second run.
    for (const r of inFlight) expect(ev.rows[r.index].runId).toBe(r.runId);
    const runs = await own.expectStatus(own.get(`/api/runs?workflowId=${workflowId}&limit=100`), 200);
    expect(runs.runs).toHaveLength(ROWS);
    expect(runs.runs.every((r: any) => r.trigger === 'evaluation')).toBe(true);
    expect(new Set(ev.rows.map((r: any) => r.runId)).size).toBe(ROWS);
  });

  it('called the outside service once per finished row, and again only for the two steps the crash cut short', () => {
    const byMessage = new Map<string, number>();
    for (const c of receiver.calls) byMessage.set(c.message, (byMessage.get(c.message) ?? 0) + 1);
    const inFlight = new Set(before.rows.filter((r: any) => r.status === 'running').map((r: any) => r.inputs.message));
    for (let i = 0; i < ROWS; i++) {
      const message = `row ${i} 第${i}行`;
      expect(byMessage.get(message), message).toBe(inFlight.has(message) ? 2 : 1);
    }
    // A step run again carries the same idempotency key: the operation's, not the attempt's.
    for (const message of inFlight) {
      const keys = receiver.calls.filter((c) => c.message === message).map((c) => c.idempotencyKey);
      expect(keys[0]).toBe(keys[1]);
    }
  });
});
