/**
 * Guarantees of evaluations (issue 36), through the route handlers: a 20-row dataset evaluated on two versions of a
 * workflow with three scorers (one an LLM judge on a scripted model whose tokens count in the cost) gives per-scorer
 * means and pass rates, cost and latency percentiles, and one run per row (trigger `evaluation`); comparing the two
 * says which rows got better; a publish gate refuses a worse draft (409 EVAL_GATE_FAILED with the summary and the
 * comparison) and publishes a fixed one; only an owner may force past the gate, audited; an evaluation can be
 * cancelled and stops starting rows; bad input is a 4xx with a code and a path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createCred } from '@/app/api/credentials/route';
import { POST as createDataset } from '@/app/api/datasets/route';
import { GET as getEvaluation } from '@/app/api/evaluations/[id]/route';
import { POST as cancelEvaluation } from '@/app/api/evaluations/[id]/cancel/route';
import { GET as compare } from '@/app/api/evaluations/compare/route';
import { GET as listAudit } from '@/app/api/audit/route';
import { GET as listRuns } from '@/app/api/runs/route';
import { PUT as putWorkflow } from '@/app/api/workflows/[id]/route';
import { GET as listEvaluations, POST as startEvaluation } from '@/app/api/workflows/[id]/evaluations/route';
import { PATCH as patchPublish, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createTenancy, type Tenancy } from '../auth/support/tenancy';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import {
  BROKEN_URGENT_WORDS,
  FIXED_URGENT_WORDS,
  MISSED_BY_THE_EXAMPLE,
  TRIAGE_CASES,
  triageGraph,
} from './triage-cases';

useFreshDataDir('paiflow-evaluations-');

let fake: FakeOpenAi;
let t: Tenancy;
let credentialId: string;
let workflowId: string;
let datasetId: string;

/** The judge grades an output 0.9 when it carries the summary, else 0.2; 100 + 20 tokens a verdict. */
function judgeVerdicts() {
  fake.setDefault((body) => {
    const user = String(body.messages?.find((m: { role: string }) => m.role === 'user')?.content ?? '');
    const good = /Output to grade:[\s\S]*Summary/.test(user);
    return {
      text: JSON.stringify({ score: good ? 0.9 : 0.2, reason: good ? 'has the summary' : 'no summary' }),
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    };
  });
}

const scorers = () => [
  { name: 'route', type: 'exact', field: 'route' },
  { name: 'mentions_summary', type: 'contains', field: 'answer', value: 'Summary' },
  {
    name: 'judge',
    type: 'llm_judge',
    field: 'answer',
    rubric: 'The reply acknowledges the customer and carries a one-sentence summary.',
    credentialId,
    model: 'judge-model',
  },
];

async function evaluate(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const r = await call(startEvaluation, 'POST', `/api/workflows/${workflowId}/evaluations`, {
    headers,
    body,
    params: { id: workflowId },
  });
  expect(r.status, r.text).toBe(202);
  return r.body.evaluationId as string;
}

const read = (id: string, headers: Record<string, string> = {}) =>
  call(getEvaluation, 'GET', `/api/evaluations/${id}`, { headers, params: { id } });

async function finished(id: string) {
  for (let i = 0; i < 600; i++) {
    const r = await read(id);
    expect(r.status, r.text).toBe(200);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`evaluation ${id} did not finish`);
}

async function saveDraft(words: string) {
  const r = await call(putWorkflow, 'PUT', `/api/workflows/${workflowId}`, {
    body: { graph: triageGraph(words) },
    params: { id: workflowId },
  });
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  process.env.HTTP_ALLOWLIST = new URL(fake.baseURL).host;
  judgeVerdicts();
  t = await createTenancy();
  const cred = await call(createCred, 'POST', '/api/credentials', {
    body: {
      name: 'judge',
      type: 'openai',
      data: {
        provider: 'openai_compatible',
        baseUrl: fake.baseURL,
        apiKey: 'sk-judge',
        prices: { 'judge-model': { input: 1, output: 2 } },
      },
    },
  });
  expect(cred.status, cred.text).toBe(201);
  credentialId = cred.body.id;
  const wf = await call(createWorkflow, 'POST', '/api/workflows', {
    body: { name: 'Triage under evaluation', graph: triageGraph() },
  });
  expect(wf.status, wf.text).toBe(201);
  workflowId = wf.body.id;
  const v1 = await call(publish, 'POST', `/api/workflows/${workflowId}/publish`, { params: { id: workflowId } });
  expect(v1.status, v1.text).toBe(201);
  const ds = await call(createDataset, 'POST', '/api/datasets', { body: { name: '工单分诊', rows: TRIAGE_CASES } });
  expect(ds.status, ds.text).toBe(201);
  datasetId = ds.body.id;
}, 180_000);

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
  await fake?.close();
});

let first: any;
let second: any;

describe('an evaluation of a published version', () => {
  it('runs every row as a run with trigger evaluation and summarises each scorer, cost and latency', async () => {
    const id = await evaluate({ datasetId, version: 1, scorers: scorers(), concurrency: 4 });
    first = await finished(id);
    expect(first).toMatchObject({ status: 'succeeded', workflowId, version: 1, datasetId, datasetVersion: 1 });
    expect(first.progress).toEqual({ total: 20, done: 20, running: 0, pending: 0 });
    expect(first.summary.route).toEqual({ mean: 0.8, passRate: 0.8 });
    expect(first.summary.mentions_summary).toEqual({ mean: 1, passRate: 1 });
    expect(first.summary.judge).toEqual({ mean: 0.9, passRate: 1 });
    // The demo model is free; the judge's 100 + 20 tokens at $1 / $2 per million tokens, twenty times.
    expect(first.summary.costUsd).toBeCloseTo(20 * (100 * 1 + 20 * 2) * 1e-6, 10);
    expect(first.summary.p50Ms).toEqual(expect.any(Number));
    expect(first.summary.p95Ms).toBeGreaterThanOrEqual(first.summary.p50Ms);
    expect(first.rows).toHaveLength(20);
    for (const [i, row] of first.rows.entries()) {
      expect(row).toMatchObject({ index: i, status: 'scored', expected: TRIAGE_CASES[i].expected });
      expect(row.runId).toMatch(/^run_/);
      expect(row.scores.route.passed).toBe(!MISSED_BY_THE_EXAMPLE.includes(i));
    }
    expect(first.rows[16].scores.route.reason).toContain('else');
    expect(first.rows[0].scores.judge).toEqual({ score: 0.9, passed: true, reason: 'has the summary' });
    // The judge was asked with the credential's key, with the rubric and the row's output.
    const judged = fake.requests.filter((b) => b.model === 'judge-model');
    expect(judged).toHaveLength(20);
    expect(fake.tokens.every((tok) => tok === 'sk-judge')).toBe(true);

    const runs = await call(listRuns, 'GET', `/api/runs?workflowId=${workflowId}&trigger=evaluation&limit=100`);
    expect(runs.status, runs.text).toBe(200);
    const runIds = runs.body.runs.map((r: { id: string }) => r.id).sort();
    expect(runIds).toEqual(first.rows.map((r: { runId: string }) => r.runId).sort());
    expect(runs.body.runs.every((r: { trigger: string }) => r.trigger === 'evaluation')).toBe(true);
  }, 120_000);

  it('of the fixed draft is better, and the comparison names the rows that changed first', async () => {
    await saveDraft(FIXED_URGENT_WORDS);
    second = await finished(await evaluate({ datasetId, scorers: scorers(), concurrency: 8 }));
    expect(second).toMatchObject({ status: 'succeeded', version: 'draft' });
    expect(second.summary.route).toEqual({ mean: 1, passRate: 1 });

    const c = await call(compare, 'GET', `/api/evaluations/compare?a=${first.id}&b=${second.id}`);
    expect(c.status, c.text).toBe(200);
    expect(c.body.scorers.route).toEqual({ a: 0.8, b: 1, diff: 0.2 });
    expect(c.body.scorers.judge).toEqual({ a: 0.9, b: 0.9, diff: 0 });
    expect(c.body.counts).toMatchObject({ better: 4, worse: 0, same: 16 });
    expect(c.body.rows.slice(0, 4).map((r: { change: string; index: number }) => [r.change, r.index])).toEqual(
      MISSED_BY_THE_EXAMPLE.map((i) => ['better', i]),
    );
    expect(c.body.rows[0].a.outputs.route).toBe('else');
    expect(c.body.rows[0].b.outputs.route).toBe('urgent');

    const list = await call(listEvaluations, 'GET', `/api/workflows/${workflowId}/evaluations`, {
      params: { id: workflowId },
    });
    expect(list.body.evaluations.map((e: { id: string }) => e.id)).toEqual([second.id, first.id]);
    expect(list.body.evaluations[0].summary.route.mean).toBe(1);
    expect(list.body.nextCursor).toBeNull();
    // Page by page: one per page, the cursor leads to the older one, and the last page says there is no more.
    const page = (query: string) =>
      call(listEvaluations, 'GET', `/api/workflows/${workflowId}/evaluations?${query}`, { params: { id: workflowId } });
    const one = await page('limit=1');
    expect(one.body.evaluations.map((e: { id: string }) => e.id)).toEqual([second.id]);
    const two = await page(`limit=1&cursor=${one.body.nextCursor}`);
    expect(two.body.evaluations.map((e: { id: string }) => e.id)).toEqual([first.id]);
    expect(two.body.nextCursor).toBeNull();
  }, 120_000);
});

describe('the publish gate', () => {
  const gate = () => ({
    datasetId,
    scorers: scorers().slice(0, 2),
    minMean: { route: 0.75 },
    maxDrop: { route: 0.05 },
    concurrency: 8,
  });

  it('refuses a draft that falls short, with the summary and the comparison, and publishes nothing', async () => {
    const set = await call(patchPublish, 'PATCH', `/api/workflows/${workflowId}/publish`, {
      body: { gate: gate() },
      params: { id: workflowId },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.gate).toMatchObject({ datasetId, minMean: { route: 0.75 } });

    await saveDraft(BROKEN_URGENT_WORDS);
    const refused = await call(publish, 'POST', `/api/workflows/${workflowId}/publish`, { params: { id: workflowId } });
    const err = expectError(refused, 409, 'EVAL_GATE_FAILED');
    expect(err.message).toContain('route');
    expect(refused.body.error.summary.route.mean).toBe(0.4);
    expect(refused.body.error.failures).toEqual(
      expect.arrayContaining([
        { scorer: 'route', rule: 'minMean', value: 0.4, limit: 0.75 },
        { scorer: 'route', rule: 'maxDrop', value: 0.4, limit: 0.05 },
      ]),
    );
    expect(refused.body.error.comparison.scorers.route).toEqual({ a: 0.8, b: 0.4, diff: -0.4 });
    expect(refused.body.error.comparison.counts.worse).toBe(8);
    const gateEval = await read(refused.body.error.evaluationId);
    expect(gateEval.body).toMatchObject({ purpose: 'gate', version: 'draft', status: 'succeeded' });
    // Still version 1 on the endpoint.
    const now = await call(patchPublish, 'PATCH', `/api/workflows/${workflowId}/publish`, {
      body: { publicTrace: false },
      params: { id: workflowId },
    });
    expect(now.body.version).toBe(1);
  }, 120_000);

  it('lets only an owner force it, and records that in the audit log', async () => {
    const wf = t.workflowA.id;
    const set = await call(patchPublish, 'PATCH', `/api/workflows/${wf}/publish`, {
      headers: t.ownerA.headers,
      body: { gate: { ...gate(), datasetId: await datasetOf(t.ownerA.headers) } },
      params: { id: wf },
    });
    expect(set.status, set.text).toBe(200);
    const byEditor = await call(publish, 'POST', `/api/workflows/${wf}/publish`, {
      headers: t.editorA.headers,
      body: { force: true },
      params: { id: wf },
    });
    expectError(byEditor, 403, 'FORBIDDEN', 'force');
    const byOwner = await call(publish, 'POST', `/api/workflows/${wf}/publish`, {
      headers: t.ownerA.headers,
      body: { force: true },
      params: { id: wf },
    });
    expect(byOwner.status, byOwner.text).toBe(201);
    const audit = await call(listAudit, 'GET', '/api/audit?limit=50', { headers: t.ownerA.headers });
    expect(audit.status, audit.text).toBe(200);
    const forced = audit.body.find((e: { action: string }) => e.action === 'workflow.publish_forced');
    expect(forced).toMatchObject({ target: wf });
  }, 120_000);

  it('lets only an owner remove or weaken the gate, and records every change in the audit log', async () => {
    const wf = t.workflowA.id;
    const patch = (headers: Record<string, string>, g: unknown) =>
      call(patchPublish, 'PATCH', `/api/workflows/${wf}/publish`, { headers, body: { gate: g }, params: { id: wf } });
    const strict = { ...gate(), datasetId: await datasetOf(t.ownerA.headers) };
    expect((await patch(t.ownerA.headers, strict)).status).toBe(200);
    // Each of these lets through a draft the strict gate refuses: an editor may not make them.
    const { maxDrop: _drop, ...noBaseline } = strict;
    for (const [weaker, path] of [
      [null, 'gate'],
      [{ ...strict, minMean: { route: 0.1 } }, 'gate.minMean.route'],
      [{ ...noBaseline, minMean: strict.minMean }, 'gate.maxDrop.route'],
      [{ ...strict, maxDrop: { route: 0.5 } }, 'gate.maxDrop.route'],
      [{ ...strict, scorers: strict.scorers.slice(0, 1) }, 'gate.scorers.mentions_summary'],
    ] as const) {
      const refused = await patch(t.editorA.headers, weaker);
      expectError(refused, 403, 'FORBIDDEN', path);
    }
    const still = await call(patchPublish, 'PATCH', `/api/workflows/${wf}/publish`, {
      headers: t.editorA.headers,
      body: { publicTrace: false },
      params: { id: wf },
    });
    expect(still.body.gate).toMatchObject(strict);
    // Raising a bar is any editor's to do; an owner may remove the gate. Both are in the audit log.
    expect((await patch(t.editorA.headers, { ...strict, minMean: { route: 0.9 } })).status).toBe(200);
    expect((await patch(t.ownerA.headers, null)).status).toBe(200);
    const audit = await call(listAudit, 'GET', '/api/audit?limit=50', { headers: t.ownerA.headers });
    const entries = audit.body.filter((e: { target: string }) => e.target === wf);
    const raised = entries.find((e: { action: string }) => e.action === 'workflow.gate_changed');
    expect(raised).toMatchObject({ actor: { email: t.editorA.email }, data: { after: { minMean: { route: 0.9 } } } });
    const removed = entries.find((e: { action: string }) => e.action === 'workflow.gate_weakened');
    expect(removed).toMatchObject({
      actor: { email: t.ownerA.email },
      data: { after: null, weakenings: ['removes the gate'] },
    });
  }, 120_000);

  it('publishes the fixed draft once it passes', async () => {
    await saveDraft(FIXED_URGENT_WORDS);
    const ok = await call(publish, 'POST', `/api/workflows/${workflowId}/publish`, { params: { id: workflowId } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.version).toBe(2);
    expect(ok.body.gate.summary.route).toEqual({ mean: 1, passRate: 1 });
    const gateEval = await read(ok.body.gate.evaluationId);
    expect(gateEval.body).toMatchObject({ purpose: 'gate', status: 'succeeded' });
  }, 120_000);
});

async function datasetOf(headers: Record<string, string>) {
  const ds = await call(createDataset, 'POST', '/api/datasets', {
    headers,
    body: { name: 'gate rows', rows: TRIAGE_CASES.slice(0, 4) },
  });
  expect(ds.status, ds.text).toBe(201);
  return ds.body.id as string;
}

describe('cancelling', () => {
  it('stops an evaluation: its runs in flight are cancelled and no row starts afterwards', async () => {
    // Every model call of this workflow takes 1.5 s, so the evaluation is still running when it is cancelled.
    fake.setDefault(() => ({ text: 'slow answer', delayMs: 1500 }));
    const slow = triageGraph();
    const llm = slow.nodes.find((n) => n.id === 'summarize')!;
    (llm.data.config as Record<string, unknown>).credentialId = credentialId;
    (llm.data.config as Record<string, unknown>).model = 'slow-model';
    const wf = await call(createWorkflow, 'POST', '/api/workflows', { body: { name: 'Slow triage', graph: slow } });
    expect(wf.status, wf.text).toBe(201);
    const started = await call(startEvaluation, 'POST', `/api/workflows/${wf.body.id}/evaluations`, {
      body: { datasetId, scorers: [{ name: 'route', type: 'exact', field: 'route' }], concurrency: 2 },
      params: { id: wf.body.id },
    });
    expect(started.status, started.text).toBe(202);
    const id = started.body.evaluationId;
    await new Promise((r) => setTimeout(r, 400));
    const c = await call(cancelEvaluation, 'POST', `/api/evaluations/${id}/cancel`, { params: { id } });
    expect(c.status, c.text).toBe(202);
    expect(c.body.status).toBe('cancelled');
    const started1 = c.body.rows.filter((r: { runId: string | null }) => r.runId).length;
    expect(started1).toBeLessThanOrEqual(4);
    expect(c.body.rows.filter((r: { status: string }) => r.status === 'cancelled').length).toBeGreaterThanOrEqual(16);
    await new Promise((r) => setTimeout(r, 2000));
    const later = await read(id);
    expect(later.body.status).toBe('cancelled');
    expect(later.body.rows.filter((r: { runId: string | null }) => r.runId).length).toBe(started1);
    judgeVerdicts();
  }, 60_000);
});

describe('bad input and other workspaces', () => {
  it('is a 4xx with a code and a path, never a 500', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      call(startEvaluation, 'POST', `/api/workflows/${workflowId}/evaluations`, {
        headers,
        body,
        params: { id: workflowId },
      });
    const route = { name: 'route', type: 'exact', field: 'route' };
    expectError(await post({ datasetId, scorers: [route], extra: 1 }), 400, 'UNKNOWN_KEY', 'extra');
    expectError(await post({ datasetId, scorers: [route, route] }), 400, 'VALIDATION_ERROR', 'scorers[1].name');
    expectError(await post({ datasetId, scorers: [route], concurrency: 17 }), 400, 'VALIDATION_ERROR', 'concurrency');
    expectError(await post({ datasetId, scorers: [] }), 400, 'VALIDATION_ERROR', 'scorers');
    const unknownType = await post({ datasetId, scorers: [{ name: 'x', type: 'nope' }] });
    expect(unknownType.status, unknownType.text).toBe(400);
    expect(unknownType.body.error.path).toBe('scorers[0].type');
    expectError(await post({ datasetId: 'ds_nope', scorers: [route] }), 404, 'DATASET_NOT_FOUND', 'datasetId');
    expectError(await post({ datasetId, version: 9, scorers: [route] }), 404, 'VERSION_NOT_FOUND', 'version');
    expectError(await read('ev_nope'), 404, 'EVALUATION_NOT_FOUND');
    expectError(await call(compare, 'GET', `/api/evaluations/compare?a=${first.id}`), 400, 'VALIDATION_ERROR', 'b');
    const list = (query: string) =>
      call(listEvaluations, 'GET', `/api/workflows/${workflowId}/evaluations?${query}`, { params: { id: workflowId } });
    expectError(await list('limit=0'), 400, 'VALIDATION_ERROR', 'query.limit');
    expectError(await list('limit=ten'), 400, 'VALIDATION_ERROR', 'query.limit');
    expectError(await list('sort=asc'), 400, 'UNKNOWN_KEY', 'query.sort');
    expectError(await list('cursor=not-ours'), 400, 'INVALID_CURSOR', 'query.cursor');
  });

  it("another workspace's workflow, dataset and evaluation are not found; a viewer may only read", async () => {
    expectError(await read(first.id, t.ownerB.headers), 404, 'EVALUATION_NOT_FOUND');
    const theirs = await call(startEvaluation, 'POST', `/api/workflows/${workflowId}/evaluations`, {
      headers: t.ownerB.headers,
      body: { datasetId, scorers: [{ name: 'route', type: 'exact' }] },
      params: { id: workflowId },
    });
    expectError(theirs, 404, 'WORKFLOW_NOT_FOUND');
    const mine = await call(createWorkflow, 'POST', '/api/workflows', {
      headers: t.ownerB.headers,
      body: { name: 'B triage', graph: triageGraph() },
    });
    expect(mine.status, mine.text).toBe(201);
    const foreignDataset = await call(startEvaluation, 'POST', `/api/workflows/${mine.body.id}/evaluations`, {
      headers: t.ownerB.headers,
      body: { datasetId, scorers: [{ name: 'route', type: 'exact' }] },
      params: { id: mine.body.id },
    });
    expectError(foreignDataset, 404, 'DATASET_NOT_FOUND', 'datasetId');
    const byViewer = await call(startEvaluation, 'POST', `/api/workflows/${t.workflowA.id}/evaluations`, {
      headers: t.viewerA.headers,
      body: { datasetId, scorers: [{ name: 'route', type: 'exact' }] },
      params: { id: t.workflowA.id },
    });
    expectError(byViewer, 403, 'FORBIDDEN');
  });
});
