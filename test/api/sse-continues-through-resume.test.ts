// Guarantees: reading a run's events from the start after it failed and was resumed yields the whole history —
// the first attempt's run.failed, then the resume's events up to its run.succeeded — and only then closes.
import { afterAll, describe, expect, it } from 'vitest';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as resume } from '@/app/api/runs/[runId]/resume/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { ownerHeaders } from '../support/owner';
import { call, useFreshDataDir, waitForRun } from './api-helpers';

useFreshDataDir();

const graph = (url: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    { id: 'call', type: 'http', position: { x: 1, y: 0 }, data: { config: { url } } },
    {
      id: 'end',
      type: 'end',
      position: { x: 2, y: 0 },
      data: { config: { outputs: [{ name: 'status', value: '{{call.output.status}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'end' },
  ],
});

async function readAll(runId: string): Promise<Array<{ id: number; type: string }>> {
  const headers = await ownerHeaders(await getApp());
  const res = await events(new Request(`http://localhost/api/runs/${runId}/events`, { headers }), {
    params: Promise.resolve({ runId }),
  });
  const text = await res.text(); // resolves only when the server closes the stream
  return text
    .split('\n\n')
    .map((b) => ({ id: Number(/^id: (\d+)/m.exec(b)?.[1]), type: /^event: (.+)$/m.exec(b)?.[1] ?? '' }))
    .filter((f) => f.id);
}

describe('SSE across a resume', () => {
  afterAll(async () => {
    await (await getApp()).close();
  });

  it('streams past the first terminal event when the run was resumed, and closes at the last one', async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'resume-sse', graph: graph('http://169.254.169.254/latest') },
    });
    expect(wf.status).toBe(201);
    const started = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      body: { inputs: {} },
    });
    const runId = started.body.runId;
    expect((await waitForRun(getRun, runId)).status).toBe('failed'); // SSRF guard refused the metadata address
    // "Fix" the draft: the node with the same id becomes a template node; a draft run's resume re-reads the draft.
    const fixed = graph('x');
    fixed.nodes[1] = {
      id: 'call',
      type: 'template',
      position: { x: 1, y: 0 },
      data: { config: { template: 'ok' } },
    } as never;
    (fixed.nodes[2].data.config as { outputs: Array<{ value: string }> }).outputs[0].value = '{{call.output.text}}';
    expect(
      (await call(putWf, 'PUT', `/api/workflows/${wf.body.id}`, { params: { id: wf.body.id }, body: { graph: fixed } }))
        .status,
    ).toBe(200);
    expect((await call(resume, 'POST', `/api/runs/${runId}/resume`, { params: { runId }, body: {} })).status).toBe(202);
    const done = await waitForRun(getRun, runId);
    expect(done.status).toBe('succeeded');
    expect(done.graph.nodes[1].type).toBe('template');

    const frames = await readAll(runId);
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
    const types = frames.map((f) => f.type);
    expect(types.filter((t) => t === 'run.started')).toHaveLength(2);
    expect(types.indexOf('run.failed')).toBeGreaterThan(0);
    expect(types.indexOf('run.failed')).toBeLessThan(types.lastIndexOf('run.started'));
    expect(types.at(-1)).toBe('run.succeeded');
  });
});
