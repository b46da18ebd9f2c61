/**
 * Guarantee: a run that failed at one node and is resumed after the cause is fixed (`POST /api/runs/:id/resume` →
 * 202) succeeds without executing again any node that had succeeded — proven from the outside by a receiver that
 * counts the calls each HTTP node makes: one per succeeded node across the failed run and the resume, the failed
 * node's retry carrying the same idempotency key — with their `attempt` still 1 and their events not repeated; and a
 * resume of a run that is still active is 409. On both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startReceiver, type Receiver } from './support/a-receiver';
import { acceptance } from './support/context';
import { createWorkflow, node, nodeOf, startRun, until, waitForRun } from './support/runs';
import { readSse } from './support/sse';

const { api, baseURL, token, ports } = acceptance();

let receiver: Receiver;
/** Paths that answer 500 until the journey "fixes" the upstream. */
const broken = new Set<string>();
/** Paths whose answer waits until the journey releases it (a node in flight). */
const held = new Map<string, () => void>();

beforeAll(async () => {
  receiver = await startReceiver(ports.receiver, async (r, res) => {
    const gate = held.get(r.path);
    if (gate) await new Promise<void>((release) => held.set(r.path, release));
    if (broken.has(r.path)) return json(res, 500, { error: 'upstream is down' });
    json(res, 200, { got: r.path.split('/').pop(), body: r.body });
  });
});

afterAll(async () => {
  for (const release of held.values()) release();
  await receiver?.close();
});

/**
 * start → a ─┐
 *       → p ─┴→ b → c → end   (every node but start/end POSTs to the receiver at /<tag>/<node>)
 */
function graph(tag: string) {
  const post = (id: string, body: string, x: number) =>
    node(
      id,
      'http',
      { method: 'POST', url: `${receiver.url}/${tag}/${id}`, bodyType: 'json', body, timeoutMs: 60_000 },
      x,
    );
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'order', type: 'string', required: true }] }),
      post('a', '{"order": "{{inputs.order}}"}', 200),
      post('p', '{"order": "{{inputs.order}}", "side": "parallel"}', 200),
      post('b', '{"a": "{{a.output.body.got}}", "p": "{{p.output.body.got}}"}', 400),
      post('c', '{"b": "{{b.output.body.got}}"}', 600),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'a', value: '{{a.output.body.got}}' },
            { name: 'b', value: '{{b.output.body.body}}' },
            { name: 'c', value: '{{c.output.status}}' },
          ],
        },
        800,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a' },
      { id: 'e2', source: 'start', target: 'p' },
      { id: 'e3', source: 'a', target: 'b' },
      { id: 'e4', source: 'p', target: 'b' },
      { id: 'e5', source: 'b', target: 'c' },
      { id: 'e6', source: 'c', target: 'end' },
    ],
  };
}

describe.each(['dag', 'langgraph'] as const)('fail → fix → resume on the %s engine', (engine) => {
  const tag = `resume-${engine}-${Date.now()}`;
  const calls = (id: string) => receiver.to(`/${tag}/${id}`);
  let runId: string;

  it('fails at the node whose upstream answers 500, after its predecessors succeeded', async () => {
    broken.add(`/${tag}/b`);
    const wf = await createWorkflow(api, `Resume ${engine} ${Date.now()}`, graph(tag), { engine });
    runId = await startRun(api, wf, { order: 'A-1042' });
    const run = await waitForRun(api, runId);
    expect(run.status).toBe('failed');
    expect(run.engine).toBe(engine);
    expect(nodeOf(run, 'b')).toMatchObject({ status: 'failed', attempt: 1 });
    expect(nodeOf(run, 'b').error.code).toBe('HTTP_STATUS');
    for (const id of ['a', 'p']) expect(nodeOf(run, id), id).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(nodeOf(run, 'c').status).not.toBe('succeeded');
    expect([calls('a').length, calls('p').length, calls('b').length, calls('c').length]).toEqual([1, 1, 1, 0]);
  });

  it('refuses to resume an active run (409), then resumes to succeeded without re-running a and p', async () => {
    broken.delete(`/${tag}/b`); // the upstream is fixed
    held.set(`/${tag}/c`, () => {}); // c will be in flight until released: the run is active meanwhile
    const resumed = await api.post(`/api/runs/${runId}/resume`, {});
    expect(resumed.status, resumed.text).toBe(202);
    expect(resumed.body.runId).toBe(runId);

    await until('c to be called by the resumed run', async () => calls('c').length === 1, 60_000, 50);
    const active = await api.post(`/api/runs/${runId}/resume`, {});
    expect(active.status, active.text).toBe(409);
    expect(active.body.error.code).toBe('RUN_ACTIVE');
    held.get(`/${tag}/c`)!();
    held.delete(`/${tag}/c`);

    const run = await waitForRun(api, runId);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs).toEqual({ a: 'a', b: { a: 'a', p: 'p' }, c: 200 });

    // From the outside: a and p were called once in all, b once per execution, c once.
    expect([calls('a').length, calls('p').length, calls('b').length, calls('c').length]).toEqual([1, 1, 2, 1]);
    // The failed node's second call names the same operation as its first: the receiver can deduplicate.
    expect(calls('b').map((r) => r.headers['idempotency-key'])).toEqual([`${runId}:b`, `${runId}:b`]);
    expect(calls('c')[0].headers['idempotency-key']).toBe(`${runId}:c`);
    // The resumed b read a's and p's stored outputs.
    expect(calls('b')[1].body).toEqual({ a: 'a', p: 'p' });

    for (const id of ['a', 'p']) expect(nodeOf(run, id), id).toMatchObject({ status: 'succeeded', attempt: 1 });
    for (const id of ['b', 'c', 'end']) expect(nodeOf(run, id).status, id).toBe('succeeded');

    // The whole trace: one contiguous stream; a and p started and succeeded once, b started twice.
    const stream = await readSse(`${baseURL}/api/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: 60_000,
    });
    expect(stream.status).toBe(200);
    const events = stream.events.map((e) => e.json);
    events.forEach((e, i) => expect(e.seq).toBe(i + 1));
    const count = (type: string, nodeId: string) => events.filter((e) => e.type === type && e.nodeId === nodeId).length;
    for (const id of ['a', 'p']) {
      expect(count('node.started', id), id).toBe(1);
      expect(count('node.succeeded', id), id).toBe(1);
    }
    expect(count('node.started', 'b')).toBe(2);
    expect(count('node.failed', 'b')).toBe(1);
    expect(count('node.succeeded', 'b')).toBe(1);
    expect(count('node.started', 'c')).toBe(1);
    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf('run.failed')).toBeGreaterThan(0);
    expect(kinds.indexOf('run.failed')).toBeLessThan(kinds.lastIndexOf('node.started'));
    expect(kinds.at(-1)).toBe('run.succeeded');

    // A succeeded run is not resumed again without naming a node to re-run from.
    const done = await api.post(`/api/runs/${runId}/resume`, {});
    expect(done.status, done.text).toBe(409);
    expect(calls('a')).toHaveLength(1);
  });
});
