/**
 * Guarantee: on the production server, a 20-row dataset evaluated on two versions of a workflow with three scorers —
 * one an LLM judge on a scripted OpenAI-compatible model, its tokens in the cost — gives each scorer's mean and pass
 * rate, one run per row listed with the trigger `evaluation`; comparing the two names the rows that got better; and a
 * publish gate refuses a worse draft (409 EVAL_GATE_FAILED, nothing published) and publishes the fixed one. On every
 * profile (in queue mode the rows' runs execute on the workers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../test/support/fake-openai-server';
import { waitPortFree } from './support/c-services';
import { acceptance } from './support/context';
import { createWorkflow, node, until } from './support/runs';

const { api, ports } = acceptance();

const URGENT = '(?i)urgent|asap|down|紧急|宕机';
const FIXED = `${URGENT}|right away|今天必须`;
const BROKEN = 'matches-nothing-at-all';

const MESSAGES: Array<[string, 'urgent' | 'else']> = [
  ['Checkout is down, this is urgent!', 'urgent'],
  ['Please help ASAP, customers cannot pay', 'urgent'],
  ['支付页面打不开，情况紧急！', 'urgent'],
  ['系统宕机了', 'urgent'],
  ['The site is down for everyone', 'urgent'],
  ['Urgent: refunds fail', 'urgent'],
  ['订单需要紧急处理', 'urgent'],
  ['Our API is down again', 'urgent'],
  ['How do I change my invoice address?', 'else'],
  ['What are your opening hours?', 'else'],
  ['请问如何修改发票抬头？', 'else'],
  ['我想了解一下企业版的价格', 'else'],
  ['Thanks, the new dashboard looks great', 'else'],
  ['怎么导出上个月的账单？', 'else'],
  ['Can I get last month’s receipt?', 'else'],
  ['你们的客服工作时间是几点？', 'else'],
  ['Refunds are failing, fix this right away', 'urgent'],
  ['Login is broken, we need it fixed right away', 'urgent'],
  ['今天必须解决登录问题', 'urgent'],
  ['报表导出失败，今天必须修好', 'urgent'],
];
const MISSED = [16, 17, 18, 19];

function triage(words: string) {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }] }),
      node(
        'route',
        'condition',
        {
          branches: [
            {
              id: 'urgent',
              label: 'urgent',
              logic: 'or',
              conditions: [{ left: '{{inputs.message}}', op: 'regex', right: words }],
            },
          ],
        },
        200,
      ),
      node('escalate', 'template', { format: 'text', template: 'ESCALATED. Summary: {{inputs.message}}' }, 400),
      node('reply', 'template', { format: 'text', template: 'Thanks! Summary: {{inputs.message}}' }, 400),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'answer', value: '{{escalate.output.text || reply.output.text}}' },
            { name: 'route', value: '{{route.output.branch}}' },
          ],
        },
        600,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'route' },
      { id: 'e2', source: 'route', sourceHandle: 'urgent', target: 'escalate' },
      { id: 'e3', source: 'route', sourceHandle: 'else', target: 'reply' },
      { id: 'e4', source: 'escalate', target: 'end' },
      { id: 'e5', source: 'reply', target: 'end' },
    ],
  };
}

let fake: FakeOpenAi;
let workflowId: string;
let datasetId: string;
let credentialId: string;

const scorers = () => [
  { name: 'route', type: 'exact', field: 'route' },
  { name: 'summary', type: 'contains', field: 'answer', value: 'Summary' },
  {
    name: 'judge',
    type: 'llm_judge',
    field: 'answer',
    rubric: 'The reply acknowledges the customer and repeats what they said.',
    credentialId,
    model: 'judge-model',
  },
];

async function evaluate(body: object) {
  const r = await api.expectStatus(api.post(`/api/workflows/${workflowId}/evaluations`, body), 202);
  return until(
    `evaluation ${r.evaluationId} to finish`,
    async () => {
      const ev = await api.expectStatus(api.get(`/api/evaluations/${r.evaluationId}`), 200);
      return ['queued', 'running'].includes(ev.status) ? null : ev;
    },
    120_000,
    250,
  );
}

const saveDraft = async (words: string) =>
  api.expectStatus(api.put(`/api/workflows/${workflowId}`, { graph: triage(words) }), 200);

beforeAll(async () => {
  await waitPortFree(ports.openai);
  fake = await startFakeOpenAi(ports.openai);
  fake.setDefault(() => ({
    text: '{"score": 0.9, "reason": "acknowledged"}',
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  }));
  const cred = await api.expectStatus(
    api.post('/api/credentials', {
      name: `Judge ${Date.now()}`,
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: 'sk-judge', prices: { 'judge-model': { input: 1, output: 2 } } },
    }),
    201,
  );
  credentialId = cred.id;
  workflowId = await createWorkflow(api, `Triage evaluated ${Date.now()}`, triage(URGENT));
  await api.expectStatus(api.post(`/api/workflows/${workflowId}/publish`, {}), 201);
  const rows = MESSAGES.map(([message, route]) => ({ inputs: { message }, expected: { route } }));
  datasetId = (await api.expectStatus(api.post('/api/datasets', { name: '工单分诊 20', rows }), 201)).id;
});

afterAll(async () => {
  await fake?.close();
});

describe('evaluations on the production server', () => {
  let first: any;
  let second: any;

  it('score every row of a published version with three scorers, the judge priced in', async () => {
    first = await evaluate({ datasetId, version: 1, scorers: scorers(), concurrency: 8 });
    expect(first.status, JSON.stringify(first.error)).toBe('succeeded');
    expect(first.summary.route).toEqual({ mean: 0.8, passRate: 0.8 });
    expect(first.summary.summary).toEqual({ mean: 1, passRate: 1 });
    expect(first.summary.judge).toEqual({ mean: 0.9, passRate: 1 });
    expect(first.summary.costUsd).toBeCloseTo(20 * (100 + 40) * 1e-6, 10);
    expect(first.rows.filter((r: any) => !r.scores.route.passed).map((r: any) => r.index)).toEqual(MISSED);
    const runs = await api.expectStatus(
      api.get(`/api/runs?workflowId=${workflowId}&trigger=evaluation&limit=100`),
      200,
    );
    expect(runs.runs.map((r: any) => r.id).sort()).toEqual(first.rows.map((r: any) => r.runId).sort());
  });

  it('compare the fixed draft with it: the four rows it fixes come first', async () => {
    await saveDraft(FIXED);
    second = await evaluate({ datasetId, version: 'draft', scorers: scorers(), concurrency: 8 });
    expect(second.summary.route).toEqual({ mean: 1, passRate: 1 });
    const c = await api.expectStatus(api.get(`/api/evaluations/compare?a=${first.id}&b=${second.id}`), 200);
    expect(c.scorers.route).toEqual({ a: 0.8, b: 1, diff: 0.2 });
    expect(c.counts).toMatchObject({ better: 4, worse: 0, same: 16 });
    expect(c.rows.slice(0, 4).map((r: any) => [r.change, r.index])).toEqual(MISSED.map((i) => ['better', i]));
  });

  it('a gate refuses a worse draft and publishes the fixed one', async () => {
    const gate = { datasetId, scorers: scorers().slice(0, 1), minMean: { route: 0.75 }, maxDrop: { route: 0.05 } };
    await api.expectStatus(api.patch(`/api/workflows/${workflowId}/publish`, { gate }), 200);
    await saveDraft(BROKEN);
    const refused = await api.post(`/api/workflows/${workflowId}/publish`, {});
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'EVAL_GATE_FAILED', summary: { route: { mean: 0.4 } } });
    expect(refused.body.error.comparison.scorers.route).toEqual({ a: 0.8, b: 0.4, diff: -0.4 });
    expect((await api.expectStatus(api.get(`/api/workflows/${workflowId}/publish`), 200)).version).toBe(1);

    await saveDraft(FIXED);
    const published = await api.expectStatus(api.post(`/api/workflows/${workflowId}/publish`, {}), 201);
    expect(published.version).toBe(2);
    expect(published.gate.summary.route).toEqual({ mean: 1, passRate: 1 });
  });
});
