/**
 * Guarantee (issue 43, "nothing fake passes for real"), on the production server with no OPENAI_* set:
 * - an LLM node with a base URL and no key, or a keyless credential (the way Ollama, vLLM, LM Studio run), is
 *   answered by that server, never by the offline demo model; an OpenAI credential without a key is refused;
 * - a run the demo model answered says so: `demo: true` on the run and `usage.demo` on each node it answered;
 * - a knowledge base on a server that ignores `encoding_format: base64` and answers float arrays indexes real vectors
 *   (search finds the document); a document whose vectors are all zeros fails with EMBEDDING_INVALID, never indexed;
 * - a graph with a branch that reaches no End node validates with a NO_END_ON_PATH warning at that node's path, and a
 *   run down that branch fails with NO_END_REACHED instead of "succeeding" with outputs {}.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../test/support/fake-openai-server';
import { waitPortFree } from './support/c-services';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd, until } from './support/runs';

const { api, ports, is } = acceptance();
const stamp = Date.now();

describe('nothing fake passes for real', () => {
  let local: FakeOpenAi;

  beforeAll(async () => {
    await waitPortFree(ports.openai);
    local = await startFakeOpenAi(ports.openai);
  });
  afterAll(async () => {
    await local?.close();
  });

  const llmFlow = (llm: Record<string, unknown>) => ({
    nodes: [
      node('start', 'start'),
      node('llm', 'llm', { model: 'llama3.1', userPrompt: 'Who answers this?', ...llm }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{llm.output.text}}' }] }, 400),
    ],
    edges: chain('start', 'llm', 'end'),
  });

  it('an LLM node with a base URL and no key is answered by that server, not the demo model', async () => {
    const before = local.requests.length;
    const wf = await createWorkflow(
      api,
      `Keyless base URL ${stamp}`,
      llmFlow({ provider: { baseUrl: local.baseURL } }),
    );
    const run = await runToEnd(api, wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ answer: 'echo: Who answers this?' });
    expect(local.requests.length).toBe(before + 1);
    expect(local.tokens.at(-1)).toBe('no-key');
    expect(run.demo).toBe(false);
    expect(nodeOf(run, 'llm').usage).not.toHaveProperty('demo');
    expect(nodeOf(run, 'llm').output).toMatchObject({ provider: 'openai-compatible' });
  });

  it('a credential with a base URL and no key is accepted for a local server and reaches it', async () => {
    const refused = await api.post('/api/credentials', {
      name: `OpenAI without a key ${stamp}`,
      type: 'openai',
      data: { provider: 'openai' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', path: 'data.apiKey' });

    const cred = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Local model server ${stamp}`,
        type: 'openai',
        data: { provider: 'openai_compatible', baseUrl: local.baseURL },
      }),
      201,
    );
    expect(cred).toMatchObject({ type: 'openai', masked: '' });
    const before = local.requests.length;
    const run = await runToEnd(
      api,
      await createWorkflow(api, `Keyless credential ${stamp}`, llmFlow({ credentialId: cred.id })),
    );
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ answer: 'echo: Who answers this?' });
    expect(local.requests.length).toBe(before + 1);
    expect(run.demo).toBe(false);
  });

  it('a run the demo model answered says so on the run and on the node', async () => {
    const before = local.requests.length;
    const run = await runToEnd(api, await createWorkflow(api, `Nothing configured ${stamp}`, llmFlow({})));
    expect(run.status).toBe('succeeded');
    expect(local.requests.length).toBe(before);
    expect(run.demo).toBe(true);
    expect(run.usage).toMatchObject({ demo: true });
    expect(nodeOf(run, 'llm').usage).toMatchObject({ demo: true });
    expect(nodeOf(run, 'llm').output).toMatchObject({ provider: 'demo' });
  });

  // Queue mode keeps knowledge bases on Elasticsearch only, which cannot run here (docs/testing.md).
  it.skipIf(is('queue'))(
    'embeddings sent as float arrays give real vectors; all-zero ones fail the document',
    async () => {
      // Float arrays whatever was asked, with a meaning a search can check: refund texts point one way, others another.
      const unit = (i: number) => Array.from({ length: 8 }, (_, j) => (j === i ? 1 : 0));
      local.setEmbeddings({ format: 'float', vector: (text) => unit(/refund|退款/i.test(text) ? 0 : 1) });
      try {
        const cred = await api.expectStatus(
          api.post('/api/credentials', {
            name: `Local embeddings ${stamp}`,
            type: 'openai',
            data: { provider: 'openai_compatible', baseUrl: local.baseURL },
          }),
          201,
        );
        const kb = await api.expectStatus(
          api.post('/api/knowledge-bases', {
            name: `Float embeddings ${stamp}`,
            credentialId: cred.id,
            embeddingModel: 'openai:nomic-embed-text',
          }),
          201,
        );
        expect(kb.dimension).toBe(8);
        const docs = `/api/knowledge-bases/${kb.id}/documents`;
        const good = await api.expectStatus(
          api.post(docs, {
            title: 'Refunds',
            text: 'Refunds are paid within 14 days of the return. 退款在退货后 14 天内支付。',
          }),
          202,
        );
        const settled = (id: string) =>
          until(`document ${id} to settle`, async () => {
            const list: any[] = await api.expectStatus(api.get(docs), 200);
            const d = list.find((x) => x.id === id);
            return d && (d.status === 'indexed' || d.status === 'failed') ? d : null;
          });
        expect(await settled(good.id)).toMatchObject({ status: 'indexed', error: null });
        const found = await api.expectStatus(
          api.post(`/api/knowledge-bases/${kb.id}/search`, { query: 'When is my refund paid?', mode: 'vector' }),
          200,
        );
        expect(found.hits[0]).toMatchObject({ title: 'Refunds' });
        expect(found.hits[0].knn).toBeCloseTo(1, 5); // the server's vectors as sent (all zeros would match nothing)

        local.setEmbeddings({ format: 'float', vector: () => [0, 0, 0, 0, 0, 0, 0, 0] });
        const bad = await api.expectStatus(api.post(docs, { title: 'Zeros', text: 'This text gets only zeros.' }), 202);
        const failed = await settled(bad.id);
        expect(failed).toMatchObject({ status: 'failed', error: { code: 'EMBEDDING_INVALID' }, chunkCount: 0 });
        expect(failed.error.message).toMatch(/all zeros/);
      } finally {
        local.setEmbeddings();
      }
    },
  );

  it('a branch reaching no End node is a validation warning; a run down it fails with NO_END_REACHED', async () => {
    const graph = {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'x', type: 'number', required: false }] }),
        node('route', 'condition', {
          branches: [{ id: 'big', conditions: [{ left: '{{inputs.x}}', op: 'gt', right: '10', valueType: 'number' }] }],
        }),
        node('answer', 'template', { template: 'a big number' }, 200),
        node('notify', 'template', { template: 'a small number' }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{answer.output.text}}' }] }, 400),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'route' },
        { id: 'e2', source: 'route', target: 'answer', sourceHandle: 'big' },
        { id: 'e3', source: 'route', target: 'notify', sourceHandle: 'else' },
        { id: 'e4', source: 'answer', target: 'end' },
      ],
    };
    const wf = await createWorkflow(api, `Branch ending nowhere ${stamp}`, graph);
    const v = await api.expectStatus(api.post(`/api/workflows/${wf}/validate`, {}), 200);
    expect(v.ok).toBe(true);
    expect(v.warnings).toEqual([expect.objectContaining({ code: 'NO_END_ON_PATH', path: 'nodes[3]' })]);

    const big = await runToEnd(api, wf, { x: 42 });
    expect(big).toMatchObject({ status: 'succeeded', outputs: { answer: 'a big number' } });
    const small = await runToEnd(api, wf, { x: 1 });
    expect(small.status).toBe('failed');
    expect(small.outputs).toBeNull();
    expect(small.error).toMatchObject({ code: 'NO_END_REACHED', details: { endedAt: ['notify'] } });
  });
});
