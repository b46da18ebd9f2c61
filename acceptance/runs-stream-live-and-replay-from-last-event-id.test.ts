/**
 * Guarantee: `GET /api/runs/:id/events` streams a run's trace live as Server-Sent Events — every event carries
 * `id: <seq>`, the seqs run 1, 2, 3 … without a gap from run.started to run.succeeded, and the server closes the
 * stream after the terminal event; a client that reconnects with `Last-Event-ID: N` (or `?after=N`) gets exactly the
 * events after N; and `GET /api/runs/:id` holds node records (status, attempt, input, output, durationMs) that match
 * the events.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, startRun, until, waitForRun } from './support/runs';
import { readSse, type SseAnswer, type SseEvent } from './support/sse';

const { api, baseURL, token } = acceptance();
const auth = { authorization: `Bearer ${token}` };
const eventsUrl = (runId: string, query = '') => `${baseURL}/api/runs/${runId}/events${query}`;

/** start → greet → ask (waits for a person) → reply → end: the run pauses, so a stream can watch it go on live. */
function waitingGraph() {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'who', type: 'string', required: true }] }),
      node('greet', 'template', { template: 'Hello, {{inputs.who}}.' }, 200),
      node('ask', 'human_input', { prompt: 'Reply to "{{greet.output.text}}"' }, 400),
      node(
        'reply',
        'template',
        { format: 'json', template: '{"greeting": "{{greet.output.text}}", "answer": "{{ask.output.answer}}"}' },
        600,
      ),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'greeting', value: '{{greet.output.text}}' },
            { name: 'reply', value: '{{reply.output.json}}' },
          ],
        },
        800,
      ),
    ],
    edges: chain('start', 'greet', 'ask', 'reply', 'end'),
  };
}

/** What every complete stream of a run must be: contiguous seqs from `from + 1`, `id` = seq, `event` = type. */
function expectWellFormed(answer: SseAnswer, runId: string, from = 0) {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
  answer.events.forEach((e, i) => {
    expect(e.json, e.data).toBeTruthy();
    expect(e.json.seq, `event #${i}`).toBe(from + i + 1);
    expect(e.id).toBe(String(e.json.seq));
    expect(e.event).toBe(e.json.type);
    expect(e.json.runId).toBe(runId);
  });
}

const types = (events: SseEvent[]) => events.map((e) => e.json.type as string);

describe('run events over SSE', () => {
  it('streams a run live from run.started to run.succeeded with contiguous ids, then closes', async () => {
    const wf = await createWorkflow(api, `Live stream ${Date.now()}`, waitingGraph());
    const runId = await startRun(api, wf, { who: 'Ada' });
    await waitForRun(api, runId, ['waiting']);

    // Open the stream while the run waits; record what arrives as it arrives.
    const seen: SseEvent[] = [];
    const streaming = readSse(eventsUrl(runId), {
      headers: auth,
      timeoutMs: 90_000,
      stopWhen: (e) => {
        seen.push(e);
        return false; // read until the server closes the stream
      },
    });
    await until(
      'the stream to deliver run.waiting',
      async () => seen.some((e) => e.event === 'run.waiting'),
      30_000,
      50,
    );
    const beforeAnswer = seen.length;
    await api.expectStatus(api.post(`/api/runs/${runId}/answer`, { nodeId: 'ask', answer: 'Hi there' }), 202);

    // readSse returns only when the server ends the stream (or fails on its timeout): closing is part of the test.
    const live = await streaming;
    expectWellFormed(live, runId);
    const t = types(live.events);
    expect(t[0]).toBe('run.started');
    expect(t.at(-1)).toBe('run.succeeded');
    expect(t.filter((x) => x === 'run.succeeded')).toHaveLength(1);
    expect(t.indexOf('run.waiting')).toBeLessThan(t.lastIndexOf('node.started'));
    // What came after the answer arrived on the open stream: the rest of the run, live.
    const after = types(live.events.slice(beforeAnswer));
    expect(after).toContain('node.succeeded');
    expect(after.at(-1)).toBe('run.succeeded');
    const replyStarted = live.events.find((e) => e.json.type === 'node.started' && e.json.nodeId === 'reply');
    expect(live.events.indexOf(replyStarted!)).toBeGreaterThanOrEqual(beforeAnswer);
    for (const nodeId of ['start', 'greet', 'ask', 'reply', 'end'])
      expect(
        live.events.some((e) => e.json.type === 'node.succeeded' && e.json.nodeId === nodeId),
        nodeId,
      ).toBe(true);

    // Reconnecting with Last-Event-ID: N (or ?after=N) gives exactly the events after N.
    const n = live.events.find((e) => e.json.type === 'run.waiting')!.json.seq as number;
    const fromHeader = await readSse(eventsUrl(runId), { headers: { ...auth, 'last-event-id': String(n) } });
    expectWellFormed(fromHeader, runId, n);
    expect(fromHeader.events.map((e) => e.json)).toEqual(live.events.slice(n).map((e) => e.json));
    const fromQuery = await readSse(eventsUrl(runId, `?after=${n}`), { headers: auth });
    expectWellFormed(fromQuery, runId, n);
    expect(fromQuery.events.map((e) => e.json)).toEqual(live.events.slice(n).map((e) => e.json));
    const last = live.events.length;
    const nothingLeft = await readSse(eventsUrl(runId), { headers: { ...auth, 'last-event-id': String(last) } });
    expect(nothingLeft.status).toBe(200);
    expect(nothingLeft.events).toEqual([]);
    // A replay from the start is the whole stream again.
    const replay = await readSse(eventsUrl(runId), { headers: auth });
    expect(replay.events.map((e) => e.json)).toEqual(live.events.map((e) => e.json));

    // The run's node records match the events.
    const run = await api.expectStatus(api.get(`/api/runs/${runId}`), 200);
    expect(run).toMatchObject({
      id: runId,
      workflowId: wf,
      status: 'succeeded',
      // Acyclic: `auto` picks the DAG engine, which pauses on the human-input node too.
      engine: 'dag',
      inputs: { who: 'Ada' },
    });
    expect(run.outputs).toEqual({ greeting: 'Hello, Ada.', reply: { greeting: 'Hello, Ada.', answer: 'Hi there' } });
    expectNodesMatchEvents(run, live.events);
  });

  it('streams a DAG run opened right after its 202 from seq 1 to run.succeeded, and records match', async () => {
    const graph = {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] }),
        node('left', 'template', { template: 'left {{inputs.n}}' }, 200),
        node('right', 'template', { format: 'json', template: '{"n": "{{inputs.n}}"}' }, 200),
        node(
          'end',
          'end',
          {
            outputs: [
              { name: 'left', value: '{{left.output.text}}' },
              { name: 'right', value: '{{right.output.json}}' },
            ],
          },
          400,
        ),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'left' },
        { id: 'e2', source: 'start', target: 'right' },
        { id: 'e3', source: 'left', target: 'end' },
        { id: 'e4', source: 'right', target: 'end' },
      ],
    };
    const wf = await createWorkflow(api, `DAG stream ${Date.now()}`, graph);
    const runId = await startRun(api, wf, { n: 7 }, { engine: 'dag' });
    const stream = await readSse(eventsUrl(runId), { headers: auth, timeoutMs: 90_000 });
    expectWellFormed(stream, runId);
    const t = types(stream.events);
    expect(t[0]).toBe('run.started');
    expect(t.at(-1)).toBe('run.succeeded');
    expect(t.filter((x) => x === 'node.succeeded')).toHaveLength(4);
    const run = await api.expectStatus(api.get(`/api/runs/${runId}`), 200);
    expect(run).toMatchObject({ status: 'succeeded', engine: 'dag', outputs: { left: 'left 7', right: { n: 7 } } });
    expectNodesMatchEvents(run, stream.events);
  });

  it('answers a stream of an unknown run with a JSON 404, not an event stream', async () => {
    const r = await readSse(eventsUrl('run_does_not_exist'), { headers: auth });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text!).error.code).toBe('RUN_NOT_FOUND');
  });
});

/** Each node record of GET /api/runs/:id is what its last node.started / node.succeeded events said. */
function expectNodesMatchEvents(run: any, events: SseEvent[]) {
  for (const rec of run.nodes) {
    const mine = events.map((e) => e.json).filter((e) => e.nodeId === rec.nodeId);
    const started = mine.filter((e) => e.type === 'node.started').at(-1);
    const succeeded = mine.filter((e) => e.type === 'node.succeeded').at(-1);
    expect(started, `node.started of ${rec.nodeId}`).toBeTruthy();
    expect(succeeded, `node.succeeded of ${rec.nodeId}`).toBeTruthy();
    expect(rec.status, rec.nodeId).toBe('succeeded');
    expect(rec.attempt, rec.nodeId).toBe(succeeded.data.attempt);
    expect(rec.attempt, rec.nodeId).toBeGreaterThanOrEqual(1);
    expect(rec.input, rec.nodeId).toEqual(started.data.input);
    expect(rec.output, rec.nodeId).toEqual(succeeded.data.output);
    expect(rec.durationMs, rec.nodeId).toBe(succeeded.data.durationMs);
    expect(rec.error, rec.nodeId).toBeNull();
    expect(Date.parse(rec.finishedAt)).toBeGreaterThanOrEqual(Date.parse(rec.startedAt));
    expect(succeeded.data.type).toBe(rec.type);
  }
}
