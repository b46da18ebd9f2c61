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
import { createWorkflow, until } from './support/runs';
import {
  BROKEN_URGENT_WORDS as BROKEN,
  FIXED_URGENT_WORDS as FIXED,
  MISSED_BY_URGENT_WORDS as MISSED,
  triageGraph as triage,
  triageRows,
  URGENT_WORDS as URGENT,
} from '../test/support/triage-journey';

const { api, ports } = acceptance();

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
  const rows = triageRows();
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
