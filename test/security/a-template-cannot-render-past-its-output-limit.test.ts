/**
 * Guarantee: rendering a template is linear in the template and its output, and the output is capped. A template
 * that interpolates a large value many times fails its node with TEMPLATE_OUTPUT_TOO_LARGE (the limit,
 * TEMPLATE_MAX_OUTPUT_CHARS, in the message) instead of building hundreds of megabytes; a template that is exactly
 * one ref passes its value on without copying it, however large. Refs are found by a scan that finds exactly what
 * the former regex found (which backtracked quadratically over whitespace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { findRefs } from '@/engine/template/resolve';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';

useFreshDataDir('paiflow-template-limit-');
process.env.SEED_EXAMPLE = '0';
process.env.TEMPLATE_MAX_OUTPUT_CHARS = '100000';

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
});

function graph(template: string, type = 'template') {
  const config =
    type === 'template' ? { template } : { url: 'http://localhost/', headers: [{ key: 'X-Big', value: template }] };
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'big', type: 'string', required: true }] } },
      },
      { id: 't', type, position: { x: 200, y: 0 }, data: { config } },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{t.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 't' },
      { id: 'e2', source: 't', target: 'end' },
    ],
  };
}

async function run(template: string, big: string, type = 'template') {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'render', graph: graph(template, type) } });
  expect(wf.status, wf.text).toBe(201);
  const a = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
    params: { id: wf.body.id },
    body: { inputs: { big } },
  });
  expect(a.status, a.text).toBe(202);
  return waitForRun(getRun, a.body.runId);
}

describe('template rendering', () => {
  it("a node's config that renders too large fails that node, with its snapshot and the same code", async () => {
    const done = await run('{{inputs.big}} '.repeat(50), 'x'.repeat(10_000), 'http');
    expect(done.status).toBe('failed');
    const t = done.nodes.find((n: any) => n.nodeId === 't');
    expect(t.status).toBe('failed');
    expect(t.error).toMatchObject({ code: 'TEMPLATE_OUTPUT_TOO_LARGE' });
    expect(done.error).toMatchObject({ code: 'TEMPLATE_OUTPUT_TOO_LARGE', details: { nodeId: 't' } });
  });

  it('fails with TEMPLATE_OUTPUT_TOO_LARGE past TEMPLATE_MAX_OUTPUT_CHARS', async () => {
    const done = await run('{{inputs.big}} '.repeat(50), 'x'.repeat(10_000));
    expect(done.status).toBe('failed');
    const t = done.nodes.find((n: any) => n.nodeId === 't');
    expect(t.error).toMatchObject({ code: 'TEMPLATE_OUTPUT_TOO_LARGE' });
    expect(t.error.message).toMatch(/more than 100000 characters \(TEMPLATE_MAX_OUTPUT_CHARS\)/);
  });

  it('renders below the limit, and passes one large ref on whole', async () => {
    const under = await run('[{{inputs.big}}]', 'y'.repeat(99_000));
    expect(under.status).toBe('succeeded');
    expect(under.outputs.text).toBe(`[${'y'.repeat(99_000)}]`);
    const whole = await run('{{inputs.big}}', 'z'.repeat(1_000_000));
    expect(whole.status).toBe('succeeded');
    expect(whole.outputs.text.length).toBe(1_000_000);
    expectNoServerErrorsOrStacks();
  });

  it('finds exactly the refs the former regex found', () => {
    const FORMER = /\{\{\s*([^{}]*?)\s*\}\}/g;
    const pieces = ['{{', '}}', '{', '}', ' ', '\n', 'a', 'inputs.x', '||', '"q"', '{{{', '}}}'];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 0) % n;
    for (let k = 0; k < 2000; k++) {
      const text = Array.from({ length: 1 + rnd(12) }, () => pieces[rnd(pieces.length)]).join('');
      const expected = [...text.matchAll(FORMER)].map((m) => [m[1], m.index, m.index! + m[0].length]);
      expect(
        findRefs(text).map((r) => [r.expr, r.start, r.end]),
        JSON.stringify(text),
      ).toEqual(expected);
    }
    // The case that made the regex quadratic (18 s at 200,000 spaces) is one pass for the scan.
    expect(findRefs(`{{a${' '.repeat(200_000)}`)).toEqual([]);
  });
});
