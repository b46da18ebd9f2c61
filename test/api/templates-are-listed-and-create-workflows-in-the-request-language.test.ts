// Guarantees: GET /api/templates lists every gallery template with its contract fields, in English or Simplified
// Chinese as the request asks (Accept-Language with q-values, or ?lang=); POST /api/workflows { templateId, name? }
// stores the template's graph (in that language) as a valid workflow named after the template, "name (2)" when the
// name is taken; an unknown id is 404 TEMPLATE_NOT_FOUND at `templateId`; the classic { name, graph } body still
// works; the RAG template asks for a knowledge base until the workspace has exactly one, then uses it, and with an
// empty knowledge base it still runs to `succeeded` and says that nothing was found.
import { afterAll, describe, expect, it } from 'vitest';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as getWf } from '@/app/api/workflows/[id]/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { GET as listTemplates } from '@/app/api/templates/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { TEMPLATES } from '@/engine/templates';
import { getApp } from '@/lib/server/app';
import { acceptedLanguage } from '@/lib/server/workflows/templates';
import { createKnowledgeBase } from '../knowledge/support/upload-helpers';
import {
  call,
  expectError,
  expectNoServerErrorsOrStacks,
  simpleGraph,
  useFreshDataDir,
  waitForRun,
} from './api-helpers';

useFreshDataDir('paiflow-templates-');
process.env.SEED_EXAMPLE = '0';

const HAN = /[\u4e00-\u9fff]/;

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

describe('GET /api/templates', () => {
  it('lists every template in English by default, with the contract fields', async () => {
    const a = await call(listTemplates, 'GET', '/api/templates');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-language')).toBe('en');
    expect(a.body.map((t: any) => t.id)).toEqual(TEMPLATES.map((t) => t.id));
    expect(a.body.map((t: any) => t.id)).toEqual(
      expect.arrayContaining([
        'rag-qa',
        'support-triage',
        'draft-review-loop',
        'agent-team',
        'research-agent',
        'webhook-summarize-post',
        'approval-before-http',
      ]),
    );
    for (const t of a.body) {
      expect(t, t.id).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        category: expect.any(String),
        categoryName: expect.any(String),
        howTo: expect.any(String),
        tags: expect.any(Array),
        nodeCount: t.graph.nodes.length,
      });
      expect(t.graph.nodes.length, t.id).toBeGreaterThan(1);
      expect(Array.isArray(t.graph.edges), t.id).toBe(true);
      // English means no Chinese in what the gallery shows (the tags may hold Chinese keywords).
      for (const k of ['name', 'description', 'howTo', 'categoryName']) expect(t[k], `${t.id}.${k}`).not.toMatch(HAN);
      for (const n of t.graph.nodes) expect(n.data.label ?? '', `${t.id}/${n.id}`).not.toMatch(HAN);
    }
    expect(a.body.find((t: any) => t.id === 'rag-qa').name).toBe('Knowledge base Q&A with citations');
  });

  it('answers in Simplified Chinese for zh, zh-CN and zh-Hans, names and node labels included', async () => {
    for (const header of ['zh-CN,zh;q=0.9,en;q=0.8', 'zh', 'zh-Hans', 'fr-FR, zh-CN;q=0.7, en;q=0.5']) {
      const a = await call(listTemplates, 'GET', '/api/templates', { headers: { 'accept-language': header } });
      expect(a.status).toBe(200);
      expect(a.headers.get('content-language'), header).toBe('zh-CN');
      for (const t of a.body) {
        for (const k of ['name', 'description', 'howTo', 'categoryName']) expect(t[k], `${t.id}.${k}`).toMatch(HAN);
        expect(
          t.graph.nodes.every((n: any) => HAN.test(n.data.label ?? '')),
          t.id,
        ).toBe(true);
      }
      expect(a.body.find((t: any) => t.id === 'rag-qa').name).toBe('知识库问答（带引用）');
    }
  });

  it('?lang= wins over the header; other languages and Traditional Chinese get English', async () => {
    const zh = await call(listTemplates, 'GET', '/api/templates?lang=zh-CN', { headers: { 'accept-language': 'en' } });
    expect(zh.body[0].name).toMatch(HAN);
    const en = await call(listTemplates, 'GET', '/api/templates?lang=en', { headers: { 'accept-language': 'zh-CN' } });
    expect(en.body[0].name).not.toMatch(HAN);
    for (const header of ['zh-TW', 'zh-Hant-HK', 'de-DE,fr;q=0.8', '', 'en-US;q=0.1, zh-CN;q=0']) {
      const a = await call(listTemplates, 'GET', '/api/templates', { headers: { 'accept-language': header } });
      expect(a.headers.get('content-language'), header).toBe('en');
    }
    expect(acceptedLanguage('en;q=0.4, zh-CN;q=0.6')).toBe('zh');
    expect(acceptedLanguage('zh-TW, zh-CN;q=0.5, en;q=0.4')).toBe('zh');
    expect(acceptedLanguage(null)).toBe('en');
  });

  it('needs a signed-in caller', async () => {
    expectError(await call(listTemplates, 'GET', '/api/templates', { anonymous: true }), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/workflows { templateId }', () => {
  it("stores the template's graph as a valid workflow named after the template", async () => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'support-triage' } });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({
      id: expect.stringMatching(/^wf_/),
      name: 'Support ticket triage',
      templateId: 'support-triage',
      problems: [],
    });
    expect(a.body.description).toMatch(/urgent/);
    const stored = await call(getWf, 'GET', `/api/workflows/${a.body.id}`, { params: { id: a.body.id } });
    const template = TEMPLATES.find((t) => t.id === 'support-triage')!;
    expect(stored.body.graph.nodes.map((n: any) => n.id)).toEqual(template.graph.nodes.map((n) => n.id));
    expect(stored.body.graph.edges).toHaveLength(template.graph.edges.length);
    const v = await call(validateWf, 'POST', `/api/workflows/${a.body.id}/validate`, { params: { id: a.body.id } });
    expect(v.body).toMatchObject({ ok: true, engine: 'dag', errors: [] });
  });

  it('names a second copy "name (2)", a third "name (3)", and keeps a free name as given', async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'draft-review-loop' } });
      expect(a.status, a.text).toBe(201);
      names.push(a.body.name);
    }
    expect(names).toEqual(['Draft → review loop', 'Draft → review loop (2)', 'Draft → review loop (3)']);
    const own = await call(createWf, 'POST', '/api/workflows', {
      body: { templateId: 'draft-review-loop', name: '  Blog post loop ' },
    });
    expect(own.body.name).toBe('Blog post loop');
    const again = await call(createWf, 'POST', '/api/workflows', {
      body: { templateId: 'agent-team', name: 'Blog post loop' },
    });
    expect(again.body.name).toBe('Blog post loop (2)');
  });

  it('creates the Chinese copy for a Chinese request: name, description and node labels', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { templateId: 'approval-before-http' },
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    });
    expect(a.status, a.text).toBe(201);
    expect(a.headers.get('content-language')).toBe('zh-CN');
    expect(a.body.name).toBe('人工审批后再调用接口');
    expect(a.body.description).toMatch(HAN);
    const labels = a.body.graph.nodes.map((n: any) => n.data.label);
    expect(labels).toContain('是否批准？');
    const start = a.body.graph.nodes.find((n: any) => n.id === 'start');
    expect(start.data.config.inputs[0].default).toMatch(HAN);
    expect(a.body.problems).toEqual([]);
    expect(a.body.engine).toBe('auto');
  });

  it('is 404 TEMPLATE_NOT_FOUND at templateId for an unknown id, and saves nothing', async () => {
    const before = (await (await getApp()).store.listWorkflows()).length;
    const a = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'no-such-template' } });
    const err = expectError(a, 404, 'TEMPLATE_NOT_FOUND', 'templateId');
    expect(err.message).toContain('no-such-template');
    expect((await (await getApp()).store.listWorkflows()).length).toBe(before);
  });

  it('points at the field for a bad body of either shape', async () => {
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { templateId: '' } }),
      400,
      'VALIDATION_ERROR',
      'templateId',
    );
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'rag-qa', name: '' } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'rag-qa', graph: simpleGraph() } }),
      400,
      'VALIDATION_ERROR',
      'graph',
    );
    // The classic body is checked as before.
    expectError(
      await call(createWf, 'POST', '/api/workflows', { body: { graph: simpleGraph() } }),
      400,
      'VALIDATION_ERROR',
      'name',
    );
    expectError(await call(createWf, 'POST', '/api/workflows', { body: [1] }), 400, 'VALIDATION_ERROR');
  });

  it('still creates a workflow from { name, description, graph }', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Hand-made', description: 'd', graph: simpleGraph() },
    });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({ name: 'Hand-made', description: 'd', problems: [] });
  });
});

describe('the RAG template and knowledge bases', () => {
  it('asks for a knowledge base while the workspace has none; uses the only one once it exists', async () => {
    const none = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'rag-qa' } });
    expect(none.status, none.text).toBe(201);
    expect(none.body.problems).toEqual([
      expect.objectContaining({ path: 'nodes[1].data.config.knowledgeBaseId', message: 'choose a knowledge base' }),
    ]);

    const kbId = await createKnowledgeBase('Empty handbook');
    const one = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'rag-qa' } });
    expect(one.body.name).toBe('Knowledge base Q&A with citations (2)');
    expect(one.body.problems).toEqual([]);
    const kb = one.body.graph.nodes.find((n: any) => n.type === 'knowledge');
    expect(kb.data.config.knowledgeBaseId).toBe(kbId);

    // An empty knowledge base: nothing is retrieved, and the answer says so instead of inventing one.
    const started = await call(startRun, 'POST', `/api/workflows/${one.body.id}/runs`, {
      params: { id: one.body.id },
      body: { inputs: {} },
    });
    expect(started.status, started.text).toBe(202);
    const run = await waitForRun(getRun, started.body.runId);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs).toMatchObject({
      answer: 'I could not find an answer to that in the knowledge base.',
      sources: [],
      found: false,
    });

    await createKnowledgeBase('Second handbook');
    const two = await call(createWf, 'POST', '/api/workflows', { body: { templateId: 'rag-qa', name: 'Pick one' } });
    expect(two.body.problems.map((p: any) => p.path)).toEqual(['nodes[1].data.config.knowledgeBaseId']);
  });
});
