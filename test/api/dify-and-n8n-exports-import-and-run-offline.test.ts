// Guarantees: POST /api/workflows/import takes a Dify DSL export (YAML, workflow and advanced-chat apps) and an n8n
// workflow export (its JSON object or its text) and answers 201 with the new workflow, no save problems where every
// node has a PaiFlow equivalent, and an import report that says for each source node what it became and why (English
// and Chinese); the imported Dify and n8n workflows then run offline (demo model) to the expected outputs. Bad input
// is a 400 with a code and a path: YAML or JSON that does not parse, a document of the wrong shape, an unknown format.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { DEMO_PREFIX } from '@/engine/llm/demo-provider';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from './api-helpers';

useFreshDataDir('paiflow-foreign-import-');
process.env.SEED_EXAMPLE = '0';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name), 'utf8');
const importDoc = (body: unknown) => call(importWf, 'POST', '/api/workflows/import', { body });

async function run(id: string, inputs: Record<string, unknown>) {
  const started = await call(startRun, 'POST', `/api/workflows/${id}/runs`, { params: { id }, body: { inputs } });
  expect(started.status, started.text).toBe(202);
  return waitForRun(getRun, started.body.runId, 60_000);
}

const entry = (report: any, id: string) =>
  [...report.mapped, ...report.approximated, ...report.dropped].find((e: any) => e.id === id);

beforeAll(async () => {
  await getApp();
});

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

describe('a Dify workflow export', () => {
  it('imports with a report, and runs offline through classifier, iteration, branches and aggregators', async () => {
    const a = await importDoc({ format: 'dify', content: fixture('dify-workflow-article-helper.yml') });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({
      name: 'Article helper',
      problems: [],
      importReport: { format: 'dify', dropped: [] },
    });
    const report = a.body.importReport;
    expect(report.mapped.length + report.approximated.length).toBe(14);
    expect(entry(report, '1733000000003')).toMatchObject({ type: 'iteration', nodeIds: ['format_points'] });
    expect(entry(report, '1733000000005').nodeIds).toEqual(['classify_topic']);
    expect(report.mapped.map((e: any) => e.id)).toContain('1733000000005');
    for (const e of [...report.mapped, ...report.approximated]) {
      expect(e.why.length, e.id).toBeGreaterThan(10);
      expect(e.whyZh, e.id).toMatch(/[\u4e00-\u9fff]/);
    }
    const types = Object.fromEntries(a.body.graph.nodes.map((n: any) => [n.id, n.type]));
    expect(types).toMatchObject({ format_points: 'loop', classify_topic: 'question_classifier' });

    const r = await run(a.body.id, { topic: 'Technology trends', count: 3, tone: 'casual' });
    expect(r.status, JSON.stringify(r.error)).toBe('succeeded');
    expect(r.outputs.outline).toEqual([
      '- Technology trends point 1',
      '- Technology trends point 2',
      '- Technology trends point 3',
    ]);
    expect(r.outputs.size).toBe('Long article with 3 points');
    expect(r.outputs.intro).toMatch(new RegExp(`^${DEMO_PREFIX.replace(/[[\]]/g, '\\$&')}`));
    expect(r.outputs.intro).toContain('Technology trends point 3');
    const status = Object.fromEntries(r.nodes.map((n: any) => [n.nodeId, n.status]));
    expect(status).toMatchObject({
      write_intro: 'succeeded',
      fetch_recipe: 'skipped',
      long: 'succeeded',
      short: 'skipped',
    });
  });

  it('imports an advanced-chat app: the chat query is an input; its Python code and time tool come along', async () => {
    const a = await importDoc({ format: 'dify', content: fixture('dify-advanced-chat-support.yml') });
    expect(a.status, a.text).toBe(201);
    const report = a.body.importReport;
    const start = a.body.graph.nodes.find((n: any) => n.type === 'start');
    expect(start.data.config.inputs.map((i: any) => i.name)).toContain('query');
    expect(entry(report, 'code')).toMatchObject({ type: 'code', why: expect.stringMatching(/Python/) });
    expect(report.approximated.map((e: any) => e.id)).toEqual(expect.arrayContaining(['knowledge']));
    expect(entry(report, 'tool')).toMatchObject({ type: 'tool', why: expect.stringMatching(/current time/) });
    const code = a.body.graph.nodes.find((n: any) => n.id === 'count_characters');
    expect(code.data.config.code).toContain('def main(answer: str) -> dict:');
    // The Dify knowledge base is not in this workspace: a problem to fix, not a failed import.
    expect(a.body.problems.map((p: any) => p.code)).toContain('UNKNOWN_KNOWLEDGE_BASE');
  });
});

describe('an n8n workflow export', () => {
  it('imports (object or text) with a report, and runs offline from the webhook inputs to the response', async () => {
    const text = fixture('n8n-article-helper.json');
    const a = await importDoc({ format: 'n8n', content: JSON.parse(text) });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({ name: 'Article helper (n8n)', problems: [], importReport: { format: 'n8n' } });
    const report = a.body.importReport;
    expect(entry(report, '0f5a6c1e-2b3d-4e8f-9a01-1c2d3e4f5a61').trigger).toMatchObject({
      type: 'webhook',
      mapping: { body: '{{body}}' },
    });
    expect(report.mapped.find((e: any) => e.title === 'Schedule Trigger').trigger).toMatchObject({
      type: 'schedule',
      cron: '0 9 * * *',
      timezone: 'Europe/Berlin',
    });
    expect(report.dropped).toEqual([]);
    expect(report.approximated.find((e: any) => e.title === 'Window Buffer Memory').why).toMatch(/history/);
    expect(report.mapped.find((e: any) => e.title === 'Sticky Note').why).toMatch(/description/);
    expect(report.approximated.find((e: any) => e.title === 'Respond to Webhook').why).toMatch(/\$now\.toISO\(\)/);

    const r = await run(a.body.id, { body: { name: 'Ada', topic: 'poems', count: 2 } });
    expect(r.status, JSON.stringify(r.error)).toBe('succeeded');
    expect(r.outputs.name).toBe('Ada');
    expect(r.outputs.reply).toMatch(/^\[PaiFlow demo model/);
    expect(r.outputs.words).toBeGreaterThan(5);
    const status = Object.fromEntries(r.nodes.map((n: any) => [n.nodeId, n.status]));
    expect(status).toMatchObject({
      write_poem: 'succeeded',
      describe_topic: 'skipped',
      fetch_fallback: 'skipped',
      count_words: 'succeeded',
      ai_agent: 'succeeded',
    });

    const again = await importDoc({ format: 'n8n', content: text });
    expect(again.status, again.text).toBe(201);
    expect(again.body.name).toBe('Article helper (n8n) (2)');
  });
});

describe('bad input', () => {
  it('is a 400 with a code, a message and a path', async () => {
    const yaml = await importDoc({ format: 'dify', content: 'app:\n  name: [unclosed\nworkflow: {' });
    const e = expectError(yaml, 400, 'IMPORT_UNREADABLE', 'content');
    expect(e.message).toMatch(/YAML.*line \d+/);
    expectError(await importDoc({ format: 'n8n', content: '{"nodes": [' }), 400, 'IMPORT_UNREADABLE', 'content');
    expectError(
      await importDoc({ format: 'dify', content: 'kind: app\napp:\n  mode: workflow\n' }),
      400,
      'IMPORT_INVALID_DOCUMENT',
      'content.workflow',
    );
    expectError(
      await importDoc({ format: 'dify', content: 'app:\n  mode: rag-pipeline\nworkflow:\n  graph:\n    nodes: []\n' }),
      400,
      'IMPORT_INVALID_DOCUMENT',
      'content.app.mode',
    );
    expectError(
      await importDoc({ format: 'n8n', content: { nodes: [{ type: 'x' }] } }),
      400,
      'IMPORT_INVALID_DOCUMENT',
      'content.nodes[0].name',
    );
    const unknown = expectError(await importDoc({ format: 'zapier', content: '' }), 400, 'VALIDATION_ERROR', 'format');
    expect(unknown.message).toMatch(/paiflow\.workflow.*dify.*n8n/);
    expectError(await importDoc({ format: 'dify', content: 'x', extra: 1 }), 400, 'UNKNOWN_KEY', 'extra');
    expectError(await importDoc({ format: 'dify', content: 42 }), 400, 'VALIDATION_ERROR', 'content');
  });
});
