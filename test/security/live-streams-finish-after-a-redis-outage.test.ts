// Guarantees: when the Redis behind the event bus dies mid-run (losing every stream) and comes back, every SSE stream
// that was open — GET /api/runs/:id/events, GET /api/v1/runs/:id/events and a published `mode: "stream"` call — ends
// with the full, contiguous sequence 1..N of the stored events, ending with the terminal event, also when the run
// finished while Redis was away (its live terminal event lost). During the outage /api/health answers 503 naming the
// bus, and a new stream (either events route, or a published stream call) answers 503 EVENT_BUS_UNAVAILABLE instead
// of a stream that could only wait; after the restart health is 200 again and new streams work. Uses a private
// redis-server, never the shared one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { GET as v1Events } from '@/app/api/v1/runs/[runId]/events/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import type { TraceEvent } from '@/engine/events/types';
import { getApp } from '@/lib/server/app';
import { call, expectError, useFreshDataDir } from '../api/api-helpers';
import { bearer } from '../api/v1-endpoint-helpers';
import { nodes as probeNodes } from '../queue/support/test-nodes';
import { ownerHeaders } from '../support/owner';
import { until } from '../support/until';
import { PrivateRedis, redisServerAvailable } from '../support/private-redis';

const available = redisServerAvailable('the live-streams-after-a-Redis-outage suite');

/** Follows an SSE answer in the background: the events as received, and whether the server ended the stream. */
function follow(res: Response) {
  const s = { status: res.status, events: [] as TraceEvent[], ended: false };
  void (async () => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buf.slice(0, i));
        buf = buf.slice(i + 2);
        if (data) s.events.push(JSON.parse(data[1]) as TraceEvent);
      }
    }
    s.ended = true;
  })();
  return s;
}

const gated = (gateFile: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    { id: 'gate', type: 'qprobe', position: { x: 200, y: 0 }, data: { config: { gateFile } } },
    { id: 'after', type: 'qprobe', position: { x: 400, y: 0 }, data: { config: { value: 'done' } } },
    {
      id: 'end',
      type: 'end',
      position: { x: 600, y: 0 },
      data: { config: { outputs: [{ name: 'last', value: '{{after.output.value}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'gate' },
    { id: 'e2', source: 'gate', target: 'after' },
    { id: 'e3', source: 'after', target: 'end' },
  ],
});

describe.runIf(available)('live event streams across a Redis outage', () => {
  let redis: PrivateRedis;
  const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-outage-'));

  beforeAll(async () => {
    redis = await PrivateRedis.create();
    useFreshDataDir();
    process.env.REDIS_URL = redis.url;
    process.env.REDIS_PREFIX = 'paiflow-outage-test:';
    process.env.SEED_EXAMPLE = '0';
    const app = await getApp();
    for (const n of probeNodes) app.registry.register(n);
    await until(() => app.bus.status().ok, 'the event bus to connect');
  });
  afterAll(async () => {
    await (await getApp()).close();
    await redis?.kill();
  });

  const openEvents = async (runId: string) =>
    events(new Request(`http://localhost/api/runs/${runId}/events`, { headers: await ownerHeaders(await getApp()) }), {
      params: Promise.resolve({ runId }),
    });
  const openV1Events = (runId: string, key: string) =>
    v1Events(new Request(`http://localhost/api/v1/runs/${runId}/events`, { headers: bearer(key) }), {
      params: Promise.resolve({ runId }),
    });
  const publishedStream = (slug: string, key: string) =>
    v1Run(
      new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: {}, mode: 'stream' }),
      }),
      { params: Promise.resolve({ slug }) },
    );

  /** A published workflow whose runs wait at `gateFile`, with an API key. */
  async function publishedGated(name: string, gateFile: string) {
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: gated(gateFile) } });
    expect(wf.status, wf.text).toBe(201);
    const id = wf.body.id as string;
    const pub = await call(publish, 'POST', `/api/workflows/${id}/publish`, { params: { id } });
    expect(pub.status, pub.text).toBe(201);
    const key = await call(createKey, 'POST', `/api/workflows/${id}/api-keys`, { params: { id }, body: { name } });
    expect(key.status, key.text).toBe(201);
    return { id, slug: pub.body.slug as string, key: key.body.key as string };
  }

  const expectFullSequence = async (s: ReturnType<typeof follow>, runId: string) => {
    const stored = await (await getApp()).store.getEvents(runId);
    expect(stored.at(-1)!.type).toBe('run.succeeded');
    expect(s.events.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(s.events.map((e) => e.type)).toEqual(stored.map((e) => e.type));
    expect(s.events.every((e) => e.runId === runId)).toBe(true);
  };

  it(
    'open streams finish with every seq once, in order, to the terminal event; health and new streams tell the truth',
    { timeout: 120_000 },
    async () => {
      const app = await getApp();
      const gateX = path.join(scratch, 'gate-x');
      const gateY = path.join(scratch, 'gate-y');
      const x = await publishedGated('Outage X', gateX);
      const y = await publishedGated('Outage Y', gateY);

      // Run A (a published async call) followed by both events routes, and run B (a published stream call) end while
      // Redis is away; run C (a published stream call) ends after Redis is back. All wait at their gates first.
      const a = await call(v1Run, 'POST', `/api/v1/workflows/${x.slug}/run`, {
        params: { slug: x.slug },
        headers: bearer(x.key),
        body: { inputs: {}, mode: 'async' },
      });
      expect(a.status, a.text).toBe(202);
      const runA = a.body.runId as string;
      const sseA = follow(await openEvents(runA));
      const v1A = follow(await openV1Events(runA, x.key));
      const resB = await publishedStream(x.slug, x.key);
      const resC = await publishedStream(y.slug, y.key);
      const [runB, runC] = [resB.headers.get('x-run-id')!, resC.headers.get('x-run-id')!];
      const streamB = follow(resB);
      const streamC = follow(resC);
      const all = [
        [sseA, 'the events stream of run A'],
        [v1A, 'the v1 events stream of run A'],
        [streamB, 'the published stream of run B'],
        [streamC, 'the published stream of run C'],
      ] as const;
      expect(all.map(([s]) => s.status)).toEqual([200, 200, 200, 200]);
      for (const [s, what] of all)
        await until(
          () => s.events.some((e) => e.type === 'node.progress' && e.nodeId === 'gate'),
          `${what} to be live`,
        );

      // Redis dies with the runs' streams.
      await redis.kill();
      const down = await until(async () => {
        const h = await call(health, 'GET', '/api/health', { anonymous: true });
        return h.status === 503 && h;
      }, '/api/health to answer 503');
      expect(down.body.ok).toBe(false);
      expect(typeof down.body.down.bus).toBe('string');
      expect(down.body.down.bus).not.toContain(String(redis.port));

      // New streams are refused clearly; a refused published stream call starts no run.
      const refused = await asAnswer(await openEvents(runA));
      expectError(refused, 503, 'EVENT_BUS_UNAVAILABLE');
      expect(refused.headers.get('retry-after'), 'the events route says when to retry').toMatch(/^\d+$/);
      const refusedV1 = await asAnswer(await openV1Events(runA, x.key));
      const err = expectError(refusedV1, 503, 'EVENT_BUS_UNAVAILABLE');
      expect(err.message).toMatch(/live run events are unavailable.*retry/i);
      expect(refusedV1.headers.get('retry-after')).toMatch(/^\d+$/);
      const runsBefore = (await app.store.listRuns(x.id, { limit: 50 })).length;
      expectError(await asAnswer(await publishedStream(x.slug, x.key)), 503, 'EVENT_BUS_UNAVAILABLE');
      expect((await app.store.listRuns(x.id, { limit: 50 })).length, 'no run started for a refused stream').toBe(
        runsBefore,
      );

      // Runs A and B end while Redis is still away (their live terminal events are lost): their streams end anyway.
      writeFileSync(gateX, 'open');
      for (const id of [runA, runB])
        await until(async () => (await app.store.getRun(id))?.status === 'succeeded', `run ${id} to succeed`, 30_000);
      for (const [s, what] of all.slice(0, 3)) await until(() => s.ended, `${what} to end while Redis is down`);
      await expectFullSequence(sseA, runA);
      await expectFullSequence(v1A, runA);
      await expectFullSequence(streamB, runB);
      expect(streamC.ended).toBe(false);

      // Redis comes back empty: health recovers, run C goes on and its stream (open all along) ends complete.
      await redis.start();
      await until(
        async () => (await call(health, 'GET', '/api/health', { anonymous: true })).status === 200,
        '/api/health to answer 200 after the restart',
      );
      writeFileSync(gateY, 'open');
      await until(() => streamC.ended, 'the published stream of run C to end after the restart');
      await expectFullSequence(streamC, runC);

      // New streams work again, live too.
      const resD = await publishedStream(y.slug, y.key);
      expect(resD.status).toBe(200);
      const streamD = follow(resD);
      await until(() => streamD.ended, 'a new published stream to end');
      await expectFullSequence(streamD, resD.headers.get('x-run-id')!);
    },
  );
});

/** An answer read as JSON; a stream (the old behaviour: one that could only wait) is cancelled, not read. */
async function asAnswer(res: Response) {
  const isStream = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  if (isStream) await res.body?.cancel();
  const text = isStream ? '' : await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

if (!available)
  describe('live event streams across a Redis outage', () =>
    it.skip('SKIPPED: needs the redis-server binary', () => {}));
