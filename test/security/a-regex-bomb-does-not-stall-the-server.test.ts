/**
 * Guarantee: a condition's regex cannot stall the server. A pattern over the limits (here a repeat count of 200) is
 * refused when the workflow is saved, with REGEX_TOO_COMPLEX and the pattern's path, and when a ref supplies it at
 * run time. A pattern within the limits that is still costly on a large value (RE2 is linear, but times its program
 * size: `(.*a){100}` on 1.5 MB is seconds of CPU) runs in a worker thread: while it runs, /api/health answers and a
 * second run of the same workflow (a short value, matched inline) finishes; then the bomb fails with REGEX_TIMEOUT,
 * and so does a second bomb that waited for the regex thread. Shown by the order of events, not by timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';
import { eventsSoFar, waitForEvent } from './support/run-events';

useFreshDataDir('paiflow-regex-bomb-');
process.env.SEED_EXAMPLE = '0';
// Long enough that the checks made while the bomb runs are done well before it ends.
process.env.REGEX_TIMEOUT_MS = '4000';
// One regex thread, so that the second bomb queues behind the first (whose thread is ended at its time limit).
process.env.CPU_WORKER_THREADS = '1';

const BOMB = '(.*a){100}';

function graph(pattern: string) {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: {
          config: {
            inputs: [
              { name: 'text', type: 'string', required: true },
              { name: 'pattern', type: 'string', required: false },
            ],
          },
        },
      },
      {
        id: 'c',
        type: 'condition',
        position: { x: 200, y: 0 },
        data: {
          config: { branches: [{ id: 'hit', conditions: [{ left: '{{inputs.text}}', op: 'regex', right: pattern }] }] },
        },
      },
      { id: 'yes', type: 'template', position: { x: 400, y: 0 }, data: { config: { template: 'matched' } } },
      { id: 'no', type: 'template', position: { x: 400, y: 100 }, data: { config: { template: 'no match' } } },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'r', value: '{{yes.output.text || no.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e0', source: 'start', target: 'c' },
      { id: 'e1', source: 'c', sourceHandle: 'hit', target: 'yes' },
      { id: 'e2', source: 'c', sourceHandle: 'else', target: 'no' },
      { id: 'e3', source: 'yes', target: 'end' },
      { id: 'e4', source: 'no', target: 'end' },
    ],
  };
}

async function start(workflowId: string, inputs: Record<string, unknown>): Promise<string> {
  const a = await call(startRun, 'POST', `/api/workflows/${workflowId}/runs`, {
    params: { id: workflowId },
    body: { inputs },
  });
  expect(a.status, a.text).toBe(202);
  return a.body.runId;
}

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
});

describe('a regex bomb', () => {
  it('with a repeat count over the limit is refused when the workflow is saved, with its path', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'too complex', graph: graph('(.*a){200}') },
    });
    const err = expectError(a, 400, 'REGEX_TOO_COMPLEX', 'graph.nodes[1].data.config.branches[0].conditions[0].right');
    expect(err.message).toMatch(/200 times; the limit is 100 \(REGEX_MAX_REPEAT\)/);
  });

  it('supplied by a ref is refused when the node runs, with REGEX_TOO_COMPLEX', async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'pattern from input', graph: graph('{{inputs.pattern}}') },
    });
    expect(wf.status, wf.text).toBe(201);
    const run = await waitForRun(getRun, await start(wf.body.id, { text: 'abc', pattern: `(x${'y'.repeat(1200)})` }));
    expect(run.status).toBe('failed');
    expect(run.nodes.find((n: any) => n.nodeId === 'c').error).toMatchObject({ code: 'REGEX_TOO_COMPLEX' });
  });

  it('within the limits but costly runs off the event loop and ends with REGEX_TIMEOUT', async () => {
    const app = await getApp();
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'costly regex', graph: graph(BOMB) } });
    expect(wf.status, wf.text).toBe(201);
    const text = 'ab'.repeat(750_000);
    const bomb = await start(wf.body.id, { text });
    const second = await start(wf.body.id, { text });
    await waitForEvent(app, bomb, (e) => e.type === 'node.started' && e.nodeId === 'c');

    // The bomb is being matched. The server answers …
    const h = await call(health, 'GET', '/api/health');
    expect(h.status).toBe(200);
    expect(h.body.ok).toBe(true);
    // … and another run of the same condition, on a short value, starts and finishes.
    const quick = await waitForRun(getRun, await start(wf.body.id, { text: 'xa' }));
    expect(quick.status).toBe('succeeded');
    expect(quick.outputs).toEqual({ r: 'no match' }); // it needs 100 a's

    // All that happened before the bomb ended.
    expect(eventsSoFar(app, bomb).ended).toBe(false);
    expect((await call(getRun, 'GET', `/api/runs/${bomb}`, { params: { runId: bomb } })).body.status).toBe('running');

    for (const id of [bomb, second]) {
      const done = await waitForRun(getRun, id, 60_000);
      expect(done.status).toBe('failed');
      const c = done.nodes.find((n: any) => n.nodeId === 'c');
      expect(c.error).toMatchObject({ code: 'REGEX_TIMEOUT' });
      expect(c.error.message).toMatch(/within 4000 ms \(REGEX_TIMEOUT_MS\)/);
    }
    expectNoServerErrorsOrStacks();
  });
});
