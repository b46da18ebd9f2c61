/**
 * Guarantee: a written-out regex that RE2 cannot run (a backreference, a lookahead or lookbehind — features of
 * backtracking engines) is refused when the workflow is saved or validated, not when it runs: 400 REGEX_UNSUPPORTED
 * with a message naming the feature and the JSON path of the pattern, on create, on update and from the validate
 * endpoint; nothing is saved. A pattern that only arrives by a ref at run time fails its node with the same code.
 * RE2 syntax that looks similar (named groups, inline flags, POSIX classes) is still accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';

useFreshDataDir('paiflow-regex-unsupported-');
process.env.SEED_EXAMPLE = '0';

const CONDITION_PATH = 'nodes[1].data.config.branches[0].conditions[0].right';

function conditionGraph(pattern: string) {
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

/** start → loop (while the text matches `pattern`) ⇄ body; loop done → end. */
function whileLoopGraph(pattern: string) {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'text', type: 'string', required: true }] } },
      },
      {
        id: 'loop',
        type: 'loop',
        position: { x: 200, y: 0 },
        data: {
          config: {
            mode: 'while',
            condition: { left: '{{inputs.text}}', op: 'regex', right: pattern },
            maxIterations: 3,
          },
        },
      },
      { id: 'body', type: 'template', position: { x: 400, y: 0 }, data: { config: { template: 'pass' } } },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'n', value: '{{loop.output.count}}' }] } },
      },
    ],
    edges: [
      { id: 'e0', source: 'start', target: 'loop' },
      { id: 'e1', source: 'loop', sourceHandle: 'body', target: 'body' },
      { id: 'e2', source: 'body', target: 'loop' },
      { id: 'e3', source: 'loop', sourceHandle: 'done', target: 'end' },
    ],
  };
}

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

describe('a regex feature RE2 lacks', () => {
  it.each([
    ['a backreference', '(a)\\1', /backreference \(\\1\)/],
    ['a named backreference', '(?<w>a)\\k<w>', /named backreference/],
    ['a lookahead', 'foo(?=bar)', /lookahead/],
    ['a negative lookahead', '^(?!draft)', /negative lookahead/],
    ['a lookbehind', '(?<=\\$)\\d+', /lookbehind/],
    ['a negative lookbehind', '(?<!un)done', /negative lookbehind/],
  ])('in a condition, %s, is refused when the workflow is created', async (_what, pattern, feature) => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'unsupported regex', graph: conditionGraph(pattern) },
    });
    const err = expectError(a, 400, 'REGEX_UNSUPPORTED', `graph.${CONDITION_PATH}`);
    expect(err.message).toMatch(feature);
    expect(err.message).toMatch(/RE2/);
    const listed = await call(listWf, 'GET', '/api/workflows');
    expect(listed.body).toEqual([]);
  });

  it('in a while loop, is refused when the workflow is updated, and the stored graph is kept', async () => {
    const created = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'loop', graph: whileLoopGraph('^a+$') },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const a = await call(putWf, 'PUT', `/api/workflows/${id}`, {
      params: { id },
      body: { graph: whileLoopGraph('^(?!stop)') },
    });
    const err = expectError(a, 400, 'REGEX_UNSUPPORTED', 'graph.nodes[1].data.config.condition.right');
    expect(err.message).toMatch(/negative lookahead/);
    const stored = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
    expect(stored.body.graph.nodes[1].data.config.condition.right).toBe('^a+$');
  });

  it('is reported by the validate endpoint with its code and path', async () => {
    const created = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'to validate', graph: conditionGraph('^\\d+$') },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const ok = await call(validateWf, 'POST', `/api/workflows/${id}/validate`, { params: { id } });
    expect(ok.body).toMatchObject({ ok: true, errors: [] });
    const v = await call(validateWf, 'POST', `/api/workflows/${id}/validate`, {
      params: { id },
      body: { graph: conditionGraph('(\\w+) \\1') },
    });
    expect(v.status, v.text).toBe(200);
    expect(v.body.ok).toBe(false);
    expect(v.body.errors).toEqual([
      expect.objectContaining({
        code: 'REGEX_UNSUPPORTED',
        path: CONDITION_PATH,
        message: expect.stringMatching(/\\1/),
      }),
    ]);
  });

  it('supplied by a ref at run time fails its node with REGEX_UNSUPPORTED', async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'pattern from input', graph: conditionGraph('{{inputs.pattern}}') },
    });
    expect(wf.status, wf.text).toBe(201);
    const started = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      body: { inputs: { text: 'foobar', pattern: 'foo(?=bar)' } },
    });
    expect(started.status, started.text).toBe(202);
    const run = await waitForRun(getRun, started.body.runId);
    expect(run.status).toBe('failed');
    expect(run.nodes.find((n: any) => n.nodeId === 'c').error).toMatchObject({
      code: 'REGEX_UNSUPPORTED',
      message: expect.stringMatching(/lookahead/),
    });
  });

  it('RE2 syntax that looks alike is still accepted', async () => {
    for (const pattern of ['(?P<year>\\d{4})-(?<m>\\d\\d)', '(?i)^hello\\b', '[[:alpha:]]+\\p{Han}*', '\\x{41}\\0']) {
      const a = await call(createWf, 'POST', '/api/workflows', {
        body: { name: pattern, graph: conditionGraph(pattern) },
      });
      expect(a.status, `${pattern}: ${a.text}`).toBe(201);
    }
  });
});
