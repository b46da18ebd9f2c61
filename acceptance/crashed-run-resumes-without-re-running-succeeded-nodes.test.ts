/**
 * Guarantee: a run whose process is killed (kill -9) in the middle of a long step loses nothing and repeats nothing.
 * In-process (embedded, PostgreSQL + Redis): after a restart the run is `interrupted` (not resumed on its own by
 * default), `POST /api/runs/:id/resume` finishes it, the step that had succeeded before the crash is not executed
 * again (its outside side effect happened once, its stored output is reused) and the trace continues the same
 * contiguous seq. Queue mode: a killed worker's run is picked up by another worker without anyone resuming it, with
 * the same guarantees, and a client following the run on the app sees one unbroken stream. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient, type Client } from './support/client';
import { acceptance } from './support/context';
import { startServer, type RunningServer } from './support/server';
import { startSlowReceiver, type SlowReceiver } from './support/b-slow-receiver';
import { startWorker, type WorkerProcess } from './support/b-worker';
import { readSse, type SseAnswer } from './support/sse';
import { createWorkflow, node, nodeOf, startRun, until, waitForRun } from './support/runs';

const { profile, ports, is } = acceptance();

/** The two engines the README promises resume on; each run calls its own lane of the receiver. */
const LANES = [
  { engine: 'dag', lane: 'dag' },
  { engine: 'langgraph', lane: 'lg' },
] as const;

/** Start → charge (POST, answers at once) → slow (POST, held until released) → End. */
function orderGraph(port: number) {
  const base = `http://127.0.0.1:${port}/{{inputs.lane}}`;
  return {
    nodes: [
      node('start', 'start', {
        inputs: [
          { name: 'order', type: 'string', required: true },
          { name: 'lane', type: 'string', required: true },
        ],
      }),
      node(
        'charge',
        'http',
        { method: 'POST', url: `${base}/charge`, bodyType: 'json', body: '{"order":"{{inputs.order}}"}' },
        200,
      ),
      node(
        'slow',
        'http',
        {
          method: 'POST',
          url: `${base}/slow`,
          bodyType: 'json',
          body: '{"order":"{{inputs.order}}"}',
          timeoutMs: 600_000,
        },
        400,
      ),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'receipt', value: '{{charge.output.body.receipt}}' },
            { name: 'shipped', value: '{{slow.output.body.done}}' },
          ],
        },
        600,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'charge' },
      { id: 'e2', source: 'charge', target: 'slow' },
      { id: 'e3', source: 'slow', target: 'end' },
    ],
  };
}

interface Crashed {
  runId: string;
  lane: string;
  engine: string;
  /** The run as stored just before the crash. */
  before: any;
  /** What a client following the run saw live before the crash (up to the slow step's start). */
  live: any[];
}

const pick = (e: any) => ({ seq: e.seq, type: e.type, nodeId: e.nodeId ?? null });

/**
 * Follows a run's events the way a browser's EventSource does: a stream ends after a terminal event (here the
 * interruption), and the client reconnects after the server's `retry:` delay with Last-Event-ID, until `lastType`.
 */
async function follow(own: Client, runId: string, lastType: string, timeoutMs = 240_000): Promise<any[]> {
  const seen: any[] = [];
  const deadline = Date.now() + timeoutMs;
  while (seen.at(-1)?.type !== lastType) {
    if (Date.now() > deadline) expect.fail(`run ${runId}: no ${lastType} within ${timeoutMs} ms`);
    const a = await readSse(`${own.baseURL}/api/runs/${runId}/events`, {
      headers: { ...own.headers, ...(seen.length ? { 'last-event-id': String(seen.at(-1).seq) } : {}) },
      stopWhen: (e) => e.json?.type === lastType,
      timeoutMs: deadline - Date.now(),
    });
    expect(a.status, a.text).toBe(200);
    seen.push(...a.events.map((e) => e.json));
    if (seen.at(-1)?.type !== lastType) await new Promise((r) => setTimeout(r, 2000));
  }
  return seen;
}

/** Starts one run per engine and waits until each is inside the slow step, its charge step stored as succeeded. */
async function startRunsIntoSlowStep(own: Client, receiver: SlowReceiver, port: number) {
  const wf = await createWorkflow(own, `Orders ${Date.now()}`, orderGraph(port));
  const started: Array<Omit<Crashed, 'before' | 'live'> & { following: Promise<SseAnswer> }> = [];
  for (const { engine, lane } of LANES) {
    const runId = await startRun(own, wf, { order: `A-${lane}`, lane }, { engine });
    const following = readSse(`${own.baseURL}/api/runs/${runId}/events`, {
      headers: own.headers,
      stopWhen: (e) => e.json?.type === 'node.started' && e.json?.nodeId === 'slow',
      timeoutMs: 120_000,
    });
    started.push({ runId, lane, engine, following });
  }
  const crashed: Crashed[] = [];
  for (const s of started) {
    await until(
      `run ${s.runId} (${s.engine}) to call the slow step`,
      async () => receiver.count(`/${s.lane}/slow`) === 1,
    );
    const before = await until(`run ${s.runId} to be stored in the slow step`, async () => {
      const run = await own.expectStatus(own.get(`/api/runs/${s.runId}`), 200);
      const slow = run.nodes.find((n: any) => n.nodeId === 'slow');
      return run.status === 'running' && slow?.status === 'running' ? run : null;
    });
    expect(nodeOf(before, 'charge')).toMatchObject({ status: 'succeeded', output: { body: { receipt: 'rcpt-1' } } });
    expect(before.engine).toBe(s.engine);
    const live = (await s.following).events.map((e) => e.json);
    expect(live.at(-1)).toMatchObject({ type: 'node.started', nodeId: 'slow' });
    crashed.push({ runId: s.runId, lane: s.lane, engine: s.engine, before, live: live.map(pick) });
  }
  return crashed;
}

/** The checks that hold however the run came back: what ran once, what ran again, and the stored trace. */
async function expectFinishedWithoutRepeats(own: Client, receiver: SlowReceiver, c: Crashed) {
  const run = await own.expectStatus(own.get(`/api/runs/${c.runId}`), 200);
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  // The charge reached the outside world once; its stored output (the first receipt) is what the run used.
  expect(receiver.count(`/${c.lane}/charge`)).toBe(1);
  expect(run.outputs).toEqual({ receipt: 'rcpt-1', shipped: true });
  const charge = nodeOf(run, 'charge');
  const chargeBefore = nodeOf(c.before, 'charge');
  expect(charge).toMatchObject({ status: 'succeeded', attempt: chargeBefore.attempt });
  expect(charge.finishedAt).toBe(chargeBefore.finishedAt);
  // The step the crash cut short ran again, with the same idempotency key naming the operation, not the attempt.
  const slowCalls = receiver.hits.filter((h) => h.path === `/${c.lane}/slow`);
  expect(slowCalls).toHaveLength(2);
  expect(slowCalls.map((h) => h.idempotencyKey)).toEqual([`${c.runId}:slow`, `${c.runId}:slow`]);
  expect(receiver.hits.find((h) => h.path === `/${c.lane}/charge`)!.idempotencyKey).toBe(`${c.runId}:charge`);
  expect(nodeOf(run, 'slow').status).toBe('succeeded');

  // The stored trace: one contiguous seq from 1; what was seen live before the crash kept its numbers; then the
  // interruption, the resumed start (reusing start and charge), the slow step, and success.
  const replay = await readSse(`${own.baseURL}/api/runs/${c.runId}/events`, {
    headers: own.headers,
    stopWhen: (e) => e.json?.type === 'run.succeeded',
  });
  const events = replay.events.map((e) => e.json);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(replay.events.map((e) => Number(e.id))).toEqual(events.map((e) => e.seq));
  expect(events.slice(0, c.live.length).map(pick)).toEqual(c.live);
  const cut = events.findIndex((e) => e.type === 'run.interrupted');
  expect(cut, JSON.stringify(events.map(pick))).toBeGreaterThanOrEqual(c.live.length);
  expect(events.filter((e) => e.type === 'run.interrupted')).toHaveLength(1);
  const after = events.slice(cut + 1);
  expect(after[0]).toMatchObject({ type: 'run.started', data: { resumed: true } });
  expect(after[0].data.reused).toEqual(expect.arrayContaining(['start', 'charge']));
  expect(after.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).not.toContain('charge');
  expect(after.filter((e) => e.type === 'node.succeeded').map((e) => e.nodeId)).toEqual(['slow', 'end']);
  expect(after.at(-1)).toMatchObject({ type: 'run.succeeded', data: { outputs: run.outputs } });
  return events;
}

describe.skipIf(is('queue'))(`kill -9 of the ${profile} server in the middle of a run`, () => {
  let server: RunningServer | undefined;
  let receiver: SlowReceiver;
  let own: Client;
  let crashed: Crashed[];

  beforeAll(async () => {
    receiver = await startSlowReceiver(ports.spare);
    server = await startServer({ profile, env: { HTTP_ALLOWLIST: `127.0.0.1:${ports.spare}` } });
    own = await ownerClient(server.baseURL);
    crashed = await startRunsIntoSlowStep(own, receiver, ports.spare);
    await server.kill('SIGKILL');
    receiver.release();
    server = await server.restart();
  }, 300_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await receiver?.close();
  });

  it('reports the run interrupted after the restart, and leaves resuming it to the user (the default)', async () => {
    for (const c of crashed) {
      // The embedded store marks it at start-up; PostgreSQL once its heartbeat is older than RUN_STALE_MS.
      const run = await waitForRun(own, c.runId, ['interrupted', 'succeeded', 'failed', 'cancelled'], 120_000);
      expect(run.status, server!.log().slice(-4000)).toBe('interrupted');
      expect(run.error.code).toBe('INTERRUPTED');
      expect(nodeOf(run, 'charge').status).toBe('succeeded');
      // Seen as interrupted, the run has no node still running (the step the crash cut short failed with it).
      expect(nodeOf(run, 'slow'), `${c.engine} run ${c.runId}`).toMatchObject({
        status: 'failed',
        error: { code: 'INTERRUPTED' },
      });
      // Nothing ran it again on its own (AUTO_RESUME_INTERRUPTED is off by default).
      expect(receiver.count(`/${c.lane}/slow`)).toBe(1);
    }
  });

  it('resumes it to succeeded without executing the step that had succeeded before the crash', async () => {
    for (const c of crashed) {
      const r = await own.post(`/api/runs/${c.runId}/resume`, {});
      expect(r.status, r.text).toBe(202);
      await waitForRun(own, c.runId, ['succeeded', 'failed', 'cancelled'], 120_000);
      await expectFinishedWithoutRepeats(own, receiver, c);
    }
    // A finished run is not resumed again.
    const again = await own.post(`/api/runs/${crashed[0].runId}/resume`, {});
    expect(again.status).toBe(409);
  });
});

describe.runIf(is('queue'))('kill -9 of the queue worker in the middle of a run', () => {
  let server: RunningServer | undefined;
  const workers: WorkerProcess[] = [];
  let receiver: SlowReceiver;
  let own: Client;
  let crashed: Crashed[];
  const following = new Map<string, Promise<any[]>>();
  const logs = () => [server?.log() ?? '', ...workers.map((w) => w.log())].join('\n').slice(-6000);

  beforeAll(async () => {
    receiver = await startSlowReceiver(ports.spare);
    // The queue profile's deployment (PostgreSQL + Redis, QUEUE_MODE=1), with the workers started here so that one
    // can die while the app lives. Shorter job lock and heartbeat age than the defaults (30 s / 20 s), so that the
    // re-delivery the README promises happens within the test's patience; the behaviour is the same.
    server = await startServer({
      profile: 'postgres',
      env: {
        QUEUE_MODE: '1',
        HTTP_ALLOWLIST: `127.0.0.1:${ports.spare}`,
        QUEUE_LOCK_MS: '5000',
        RUN_STALE_MS: '5000',
        QUEUE_REAPER_MS: '2000',
      },
    });
    workers.push(await startWorker(server.env, 'worker-a'));
    own = await ownerClient(server.baseURL);
    crashed = await startRunsIntoSlowStep(own, receiver, ports.spare);
    // A client follows each run on the app through the crash of the worker that executes it.
    for (const c of crashed) {
      const events = follow(own, c.runId, 'run.succeeded');
      events.catch(() => {}); // awaited (and reported) by the test
      following.set(c.runId, events);
    }
    await workers[0].kill('SIGKILL');
    receiver.release();
    workers.push(await startWorker(server.env, 'worker-b'));
  }, 300_000);

  afterAll(async () => {
    for (const w of workers) await w.kill('SIGTERM');
    await server?.kill('SIGTERM');
    await receiver?.close();
  });

  it('lets another worker pick the run up and finish it, with nobody resuming it', async () => {
    for (const c of crashed) {
      const run = await waitForRun(own, c.runId, ['succeeded', 'failed', 'cancelled'], 180_000).catch((e) => {
        throw new Error(`${(e as Error).message}\n${logs()}`);
      });
      expect(run.status, logs()).toBe('succeeded');
    }
  });

  it('executed the step that had succeeded before the crash once, and kept one contiguous trace', async () => {
    for (const c of crashed) {
      const stored = await expectFinishedWithoutRepeats(own, receiver, c);
      // The client that followed the run through the crash (reconnecting with Last-Event-ID) saw exactly the stored
      // trace, without a gap or a repeat.
      const live = await following.get(c.runId)!;
      expect(live.map(pick)).toEqual(stored.map(pick));
    }
  });
});
