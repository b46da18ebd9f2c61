/**
 * Guarantee: the knowledge node and the agent's knowledge_search tool call the same KnowledgeService, pass the
 * config through, number citations the way formatContext prints them, trace retrieval.hits, and fail clearly without
 * a service or with an empty query.
 */
import { describe, expect, it } from 'vitest';
import { formatContext } from '@/engine/knowledge/format-context';
import { KNOWLEDGE_SEARCH_TOOL, knowledgeSearchToolSpec, runKnowledgeSearch } from '@/engine/knowledge/knowledge-tool';
import type { KnowledgeHit, KnowledgeSearchRequest, KnowledgeService } from '@/engine/knowledge/types';
import type { NodeContext } from '@/engine/node-kit/define';
import { knowledgeConfigSchema, knowledgeNode, type KnowledgeConfig } from '@/engine/nodes/knowledge';

const hit = (i: number, title: string, text: string, page: number | null = null): KnowledgeHit => ({
  citation: `[${i}]`,
  documentId: `doc${i}`,
  title,
  chunkIndex: 0,
  page,
  start: 0,
  end: text.length,
  text,
  score: 1 / i,
  bm25: 1,
  knn: 0.9,
});

function fakeService() {
  const calls: Array<{ kb: string; req: KnowledgeSearchRequest; signal?: AbortSignal }> = [];
  const service: KnowledgeService = {
    async search(kb, req, opts) {
      calls.push({ kb, req, signal: opts?.signal });
      return {
        query: req.query,
        mode: req.mode ?? 'hybrid',
        hits: [hit(1, 'Refunds', 'Within 30 days.', 2), hit(2, 'Shipping', 'Three to five days.')],
      };
    },
  };
  return { service, calls };
}

function ctx(config: Partial<KnowledgeConfig>, knowledge?: KnowledgeService) {
  const events: Array<{ type: string; data: any }> = [];
  const c = knowledgeConfigSchema.parse({ knowledgeBaseId: 'kb_1', query: 'refunds?', ...config });
  const signal = new AbortController().signal;
  const context = {
    runId: 'r',
    nodeId: 'k1',
    nodeType: 'knowledge',
    attempt: 1,
    idempotencyKey: 'r:k1:1',
    config: c,
    rawConfig: c,
    scope: { inputs: {}, nodes: {} },
    signal,
    spanId: 's',
    emit: (type: string, data: any) => events.push({ type, data }),
    fetch: undefined as any,
    secrets: { get: () => undefined },
    llm: undefined as any,
    iteration: 0,
    knowledge,
  } as unknown as NodeContext<KnowledgeConfig>;
  return { context, events, signal };
}

describe('formatContext', () => {
  it('numbers passages with their citations and pages, and keeps to a budget with whole passages', () => {
    const hits = [hit(1, 'Refunds', '  Within 30 days. ', 2), hit(2, 'Shipping', 'Three to five days.')];
    expect(formatContext(hits)).toBe('[1] Refunds (p. 2)\nWithin 30 days.\n\n[2] Shipping\nThree to five days.');
    expect(formatContext(hits, { maxChars: 40 })).toBe('[1] Refunds (p. 2)\nWithin 30 days.');
    expect(formatContext([])).toBe('');
  });
});

describe('knowledge node', () => {
  it('searches with the resolved config and outputs hits, context and query; emits retrieval.hits', async () => {
    const { service, calls } = fakeService();
    const { context, events, signal } = ctx({ topK: 2, threshold: 0.3, mode: 'bm25' }, service);
    const res = await knowledgeNode.execute(context);
    expect(calls).toEqual([{ kb: 'kb_1', req: { query: 'refunds?', topK: 2, threshold: 0.3, mode: 'bm25' }, signal }]);
    expect(res.output).toEqual({
      query: 'refunds?',
      hits: expect.any(Array),
      context: '[1] Refunds (p. 2)\nWithin 30 days.\n\n[2] Shipping\nThree to five days.',
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'retrieval.hits',
      data: { knowledgeBaseId: 'kb_1', query: 'refunds?', mode: 'bm25' },
    });
    expect(events[0].data.hits[0]).toEqual({
      citation: '[1]',
      documentId: 'doc1',
      title: 'Refunds',
      chunkIndex: 0,
      page: 2,
      score: 1,
      bm25: 1,
      knn: 0.9,
    });
  });

  it('defaults to hybrid, top 5', () => {
    expect(knowledgeConfigSchema.parse({ knowledgeBaseId: 'kb', query: 'q' })).toMatchObject({
      topK: 5,
      mode: 'hybrid',
    });
    expect(knowledgeConfigSchema.safeParse({ knowledgeBaseId: '', query: 'q' }).success).toBe(false);
  });

  it('fails with KNOWLEDGE_UNAVAILABLE without a service and EMPTY_QUERY for a blank resolved query', async () => {
    await expect(knowledgeNode.execute(ctx({}).context)).rejects.toMatchObject({ code: 'KNOWLEDGE_UNAVAILABLE' });
    const { service } = fakeService();
    const { context } = ctx({}, service);
    (context.config as any).query = '   ';
    await expect(knowledgeNode.execute(context)).rejects.toMatchObject({ code: 'EMPTY_QUERY' });
  });
});

describe('agent knowledge_search tool', () => {
  it('has a JSON-Schema spec and runs through the same service', async () => {
    const spec = knowledgeSearchToolSpec();
    expect(spec.name).toBe(KNOWLEDGE_SEARCH_TOOL);
    expect(spec.parameters).toMatchObject({ type: 'object', required: ['query'] });
    const { service, calls } = fakeService();
    const r = await runKnowledgeSearch(service, 'kb_9', { query: 'refund window', topK: 50 });
    expect(calls[0]).toMatchObject({ kb: 'kb_9', req: { query: 'refund window', topK: 20 } });
    expect(r.context).toContain('[1] Refunds (p. 2)');
    expect(r.hits).toHaveLength(2);
    await expect(runKnowledgeSearch(service, 'kb_9', { query: '' })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGUMENTS',
    });
    await expect(runKnowledgeSearch(undefined, 'kb_9', { query: 'x' })).rejects.toMatchObject({
      code: 'KNOWLEDGE_UNAVAILABLE',
    });
  });
});
