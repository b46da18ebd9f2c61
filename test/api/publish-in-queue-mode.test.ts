// Guarantees: in queue mode (runs executed by a worker process, events over Redis) the published endpoint still answers
// sync runs with their outputs as soon as the worker finishes (no fixed polling delay), streams the worker's trace to
// the terminal event, and frees its concurrency slot when the worker's run ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as v1GetRun } from '@/app/api/v1/runs/[runId]/route';
import { POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { v1Settings } from '@/lib/server/publishing/v1-settings';
import { ownerPid, queueServicesAvailable, startQueueRig, type QueueRig } from '../queue/support/queue-app';
import { call, simpleGraph } from './api-helpers';
import { bearer, expectContiguousToTerminal, readSse } from './publish-contract-suite';

const available = await queueServicesAvailable('published endpoint in queue mode');

describe.runIf(available)('published endpoint in queue mode', () => {
  let rig: QueueRig;
  let slug: string;
  let workflowId: string;
  let key: string;

  beforeAll(async () => {
    rig = await startQueueRig({ WORKERS: '1', WORKER_CONCURRENCY: '4' });
    // The route handlers use the process-wide app: make it the rig's (app.ts keeps it on globalThis).
    (globalThis as { __paiflowApp?: unknown }).__paiflowApp = Promise.resolve(rig.app);
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Queued greeter', graph: simpleGraph('Hi {{inputs.message}}') },
    });
    workflowId = wf.body.id;
    slug = (await call(publish, 'POST', `/api/workflows/${workflowId}/publish`, { params: { id: workflowId } })).body
      .slug;
    key = (await call(createKey, 'POST', `/api/workflows/${workflowId}/api-keys`, { params: { id: workflowId } })).body
      .key;
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('sync: 200 with the outputs of the run a worker executed; the slot is freed', { timeout: 60_000 }, async () => {
    const t0 = Date.now();
    const r = await call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: { message: 'worker' } },
      headers: bearer(key),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hi worker' } });
    const run = await rig.run(r.body.runId);
    expect(rig.workerPids()).toContain(ownerPid(run.ownerId));
    // Warm path: a second run answers within a few hundred ms, not a polling interval per step.
    const t1 = Date.now();
    const r2 = await call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: { message: 'again' } },
      headers: bearer(key),
    });
    expect(r2.body.outputs).toEqual({ text: 'Hi again' });
    const warm = Date.now() - t1;
    const r2run = await rig.run(r2.body.runId);
    console.log(
      `[queue] published sync run: first ${t1 - t0} ms, warm ${warm} ms (run itself: ` +
        `created→finished ${Date.parse(r2run.finishedAt!) - Date.parse(r2run.createdAt)} ms)`,
    );
    const slots = v1Settings(rig.app).slots;
    for (const until = Date.now() + 10_000; slots.count(workflowId) > 0 && Date.now() < until;)
      await new Promise((ok) => setTimeout(ok, 20));
    expect(slots.count(workflowId)).toBe(0);
  });

  it('stream: the trace from the worker, contiguous to the terminal event', { timeout: 60_000 }, async () => {
    const res = await v1Run(
      new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { message: 'sse' }, mode: 'stream' }),
      }),
      { params: Promise.resolve({ slug }) },
    );
    expect(res.status).toBe(200);
    const runId = res.headers.get('x-run-id')!;
    const { frames, closed } = await readSse(res, 30_000);
    expect(closed).toBe(true);
    expectContiguousToTerminal(frames, runId);
    // The live terminal event can reach the client one commit before the worker has stored the final status.
    let g = await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(key) });
    for (const until = Date.now() + 5_000; g.body.status === 'running' && Date.now() < until;) {
      await new Promise((ok) => setTimeout(ok, 20));
      g = await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(key) });
    }
    expect(g.body).toMatchObject({ status: 'succeeded', outputs: { text: 'Hi sse' } });
  });
});

if (!available)
  describe('published endpoint in queue mode', () => it.skip('SKIPPED: needs PostgreSQL and Redis', () => {}));
