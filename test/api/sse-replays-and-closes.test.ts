// Guarantees: GET /api/runs/:id/events streams every trace event once, with `id: <seq>` contiguous from the cursor
// (Last-Event-ID or ?after=), ends with the terminal event and then closes — also when connected while the run is still
// in progress.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { ownerHeaders } from '../support/owner';
import { call, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir, waitForRun } from './api-helpers';

useFreshDataDir();

interface Frame {
  id: number;
  event: string;
  data: any;
}

/** Opens the SSE endpoint and reads it to the end (or fails after `timeoutMs`), parsing every frame. */
async function readStream(
  runId: string,
  opts: { lastEventId?: string; query?: string; timeoutMs?: number } = {},
): Promise<{ frames: Frame[]; closed: boolean; raw: string }> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...(await ownerHeaders(await getApp())) };
  if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  const req = new Request(`http://localhost/api/runs/${runId}/events${opts.query ?? ''}`, { headers });
  const res = await events(req, { params: Promise.resolve({ runId }) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let raw = '';
  let closed = false;
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), left);
      }),
    ]);
    clearTimeout(timer);
    if (r === 'timeout') break;
    if (r.done) {
      closed = true;
      break;
    }
    raw += dec.decode(r.value, { stream: true });
  }
  if (!closed) await reader.cancel().catch(() => {});
  return { frames: parseFrames(raw), closed, raw };
}

function parseFrames(raw: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of raw.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
    const get = (k: string) =>
      lines.filter((l) => l.startsWith(`${k}:`)).map((l) => l.slice(k.length + 1).replace(/^ /, ''));
    const id = get('id');
    if (!id.length) continue;
    frames.push({ id: Number(id[0]), event: get('event')[0], data: JSON.parse(get('data').join('\n')) });
  }
  return frames;
}

/** Asserts ids run contiguously from `from` and end with run.succeeded; each frame's data matches its id. */
function expectContiguous(frames: Frame[], from: number, runId: string) {
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => from + i));
  for (const f of frames) {
    expect(f.data.seq).toBe(f.id);
    expect(f.data.runId).toBe(runId);
    expect(f.data.type).toBe(f.event);
  }
  expect(frames.at(-1)!.event).toBe('run.succeeded');
  expect(frames.filter((f) => f.event.startsWith('run.') && f.event !== 'run.started').length).toBe(1);
}

// A local server whose responses are held until the test opens the gate for that step: the run is provably in
// progress while the test connects.
let server: Server;
let port: number;
const arrived = new Map<string, () => void>();
const arrivedP = new Map<string, Promise<void>>();
const gates = new Map<string, { open: () => void; p: Promise<void> }>();
function gate(step: string) {
  if (!gates.has(step)) {
    let open!: () => void;
    const p = new Promise<void>((r) => {
      open = r;
    });
    gates.set(step, { open, p });
  }
  return gates.get(step)!;
}
function arrival(step: string) {
  if (!arrivedP.has(step)) arrivedP.set(step, new Promise<void>((r) => arrived.set(step, r)));
  return arrivedP.get(step)!;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const step = new URL(req.url ?? '/', 'http://x').searchParams.get('step') ?? '0';
    arrival(step);
    arrived.get(step)!();
    await gate(step).p;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ step }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  process.env.HTTP_ALLOWLIST = `127.0.0.1:${port}`;
  await getApp();
});

afterAll(async () => {
  await (await getApp()).close();
  for (const g of gates.values()) g.open();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function createWorkflow(graph: unknown): Promise<string> {
  const a = await call(createWf, 'POST', '/api/workflows', { body: { name: 'sse', graph } });
  expect(a.status, a.text).toBe(201);
  return a.body.id;
}

async function start(id: string, inputs: Record<string, unknown>): Promise<string> {
  const a = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs } });
  expect(a.status, a.text).toBe(202);
  return a.body.runId;
}

describe('replay of a finished run', () => {
  let runId: string;
  let total: number;

  beforeAll(async () => {
    const id = await createWorkflow(simpleGraph());
    runId = await start(id, { message: 'sse' });
    expect((await waitForRun(getRun, runId)).status).toBe('succeeded');
  });

  it('streams id 1..N ending with run.succeeded, then closes', async () => {
    const { frames, closed, raw } = await readStream(runId);
    expect(closed).toBe(true);
    expectContiguous(frames, 1, runId);
    expect(frames[0].event).toBe('run.started');
    expect(raw).toMatch(/^retry: \d+\n\n/);
    total = frames.length;
    // Same events as the store holds.
    const stored = await (await getApp()).store.getEvents(runId);
    expect(frames.map((f) => f.data)).toEqual(JSON.parse(JSON.stringify(stored)));
  });

  it('with Last-Event-ID: 3 replays from seq 4', async () => {
    const { frames, closed } = await readStream(runId, { lastEventId: '3' });
    expect(closed).toBe(true);
    expectContiguous(frames, 4, runId);
    expect(frames.at(-1)!.id).toBe(total);
  });

  it('with ?after=3 replays from seq 4', async () => {
    const { frames, closed } = await readStream(runId, { query: '?after=3' });
    expect(closed).toBe(true);
    expectContiguous(frames, 4, runId);
    expect(frames.at(-1)!.id).toBe(total);
  });

  it('the Last-Event-ID header wins over ?after=', async () => {
    const { frames } = await readStream(runId, { lastEventId: '5', query: '?after=1' });
    expect(frames[0].id).toBe(6);
  });

  it('a cursor at or past the end yields no events and closes; a junk cursor means from the start', async () => {
    for (const q of [`?after=${total}`, '?after=99999999999']) {
      const r = await readStream(runId, { query: q, timeoutMs: 5000 });
      expect(r.closed, q).toBe(true);
      expect(r.frames, q).toEqual([]);
    }
    const junk = await readStream(runId, { lastEventId: 'abc' });
    expectContiguous(junk.frames, 1, runId);
  });
});

describe('connecting while the run is in progress', () => {
  it('every client gets a contiguous, gap-free, duplicate-free sequence and the stream closes at the end', async () => {
    const graph = {
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 0, y: 0 },
          data: { config: { inputs: [{ name: 'message', type: 'string' }] } },
        },
        {
          id: 'h1',
          type: 'http',
          position: { x: 1, y: 0 },
          data: { config: { url: `http://127.0.0.1:${port}/slow?step=1&m={{inputs.message}}` } },
        },
        {
          id: 'h2',
          type: 'http',
          position: { x: 2, y: 0 },
          data: { config: { url: `http://127.0.0.1:${port}/slow?step=2&prev={{h1.output.body.step}}` } },
        },
        {
          id: 't',
          type: 'template',
          position: { x: 3, y: 0 },
          data: { config: { template: '{{h1.output.body.step}}+{{h2.output.body.step}}' } },
        },
        {
          id: 'end',
          type: 'end',
          position: { x: 4, y: 0 },
          data: { config: { outputs: [{ name: 'steps', value: '{{t.output.text}}' }] } },
        },
      ],
      edges: [
        { id: 'a', source: 'start', target: 'h1' },
        { id: 'b', source: 'h1', target: 'h2' },
        { id: 'c', source: 'h2', target: 't' },
        { id: 'd', source: 't', target: 'end' },
      ],
    };
    const id = await createWorkflow(graph);
    const runId = await start(id, { message: 'live' });

    const clientA = readStream(runId); // from the very beginning, connected at once
    await arrival('1');
    expect((await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } })).body.status).toBe('running');
    const clientB = readStream(runId, { lastEventId: '2' });
    const clientC = readStream(runId, { query: '?after=3' });
    await new Promise((r) => setTimeout(r, 100));
    gate('1').open();

    await arrival('2');
    // h2's node.started is published but not yet flushed to the store: the stream must merge store and bus.
    const clientD = readStream(runId);
    const clientE = readStream(runId, { lastEventId: '5' });
    await new Promise((r) => setTimeout(r, 100));
    gate('2').open();

    const [a, b, c, d, e] = await Promise.all([clientA, clientB, clientC, clientD, clientE]);
    const run = await waitForRun(getRun, runId);
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ steps: '1+2' });

    const stored = await (await getApp()).store.getEvents(runId);
    expect(stored.map((s) => s.seq)).toEqual(stored.map((_, i) => i + 1));
    for (const [name, r, from] of [
      ['A', a, 1],
      ['B', b, 3],
      ['C', c, 4],
      ['D', d, 1],
      ['E', e, 6],
    ] as const) {
      expect(r.closed, `client ${name} closed`).toBe(true);
      expectContiguous(r.frames, from, runId);
      expect(r.frames.at(-1)!.id, `client ${name} reached the end`).toBe(stored.length);
      expect(
        r.frames.map((f) => f.data),
        `client ${name} saw the stored events`,
      ).toEqual(JSON.parse(JSON.stringify(stored.slice(from - 1))));
    }
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
