// Guarantees: a Question classifier node routes the run down the handle of the class the model chose — the other
// classes' successors are skipped — and down "other" when the answer names no class; its output is { class_id,
// class_name }. The model is asked for JSON by a JSON Schema naming the classes (json_object for servers without
// schemas), and its reply is read robustly (a code fence, a class name instead of the id, a plain reply). Offline,
// the demo model picks the class sharing most words with the query (Chinese: characters), and the run says so. On
// one engine: the branches are the node's outputsFor handles (checked below), which both engines route alike
// (test/engine/engine-parity-dag-vs-langgraph.test.ts, "condition with skipped branch").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { startFakeOpenAi, type FakeOpenAi } from '@/test/support/fake-openai-server';
import { createHarness, type Harness } from '@/test/support/harness';

const CLASSES = [
  { id: 'refund', name: 'Refund request', description: 'the customer wants their money back' },
  { id: 'shipping', name: 'Shipping question', description: 'where is my parcel, delivery time' },
];

function graph(extra: Record<string, unknown> = {}): Graph {
  const branch = (id: string) => ({
    id,
    type: 'template',
    position: { x: 2, y: 0 },
    data: { config: { template: `went ${id}` } },
  });
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'q', type: 'string' }] } },
      },
      {
        id: 'classify',
        type: 'question_classifier',
        position: { x: 1, y: 0 },
        data: { config: { model: 'gpt-x', query: '{{inputs.q}}', classes: CLASSES, ...extra } },
      },
      branch('toRefund'),
      branch('toShipping'),
      branch('toOther'),
      {
        id: 'end',
        type: 'end',
        position: { x: 3, y: 0 },
        data: {
          config: {
            outputs: [
              { name: 'class', value: '{{classify.output.class_name}}' },
              { name: 'id', value: '{{classify.output.class_id}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'classify' },
      { id: 'e2', source: 'classify', target: 'toRefund', sourceHandle: 'refund' },
      { id: 'e3', source: 'classify', target: 'toShipping', sourceHandle: 'shipping' },
      { id: 'e4', source: 'classify', target: 'toOther', sourceHandle: 'other' },
      { id: 'e5', source: 'toRefund', target: 'end' },
      { id: 'e6', source: 'toShipping', target: 'end' },
      { id: 'e7', source: 'toOther', target: 'end' },
    ],
  };
}

async function statuses(h: Harness, runId: string): Promise<Record<string, string>> {
  const nodes = await h.store.getNodeRuns(runId);
  return Object.fromEntries(nodes.map((n) => [n.nodeId, n.status]));
}

describe('the Question classifier node', () => {
  // One database for the file: the runs on the demo model and those on the scripted server share it.
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('validates with one handle per class plus "other", and rejects an edge from a handle it does not have', () => {
    const registry = createDefaultRegistry();
    expect(validateGraph(graph(), registry).errors).toEqual([]);
    const g = graph();
    g.edges[1].sourceHandle = 'billing';
    expect(validateGraph(g, registry).errors.map((e) => e.code)).not.toEqual([]);
    expect(registry.get('question_classifier').outputsFor!(graph().nodes[1].data.config as never)).toEqual([
      { id: 'refund', label: 'Refund request' },
      { id: 'shipping', label: 'Shipping question' },
      { id: 'other', label: 'other' },
    ]);
  });

  describe('on the offline demo model', () => {
    it('takes the class that shares most words with the query, skips the others, and marks the run demo', async () => {
      const run = await h.runToEnd(await h.createWorkflow(graph()), {
        q: 'My parcel has not arrived, what is the delivery time?',
      });
      expect(run.status).toBe('succeeded');
      expect(run.outputs).toMatchObject({ class: 'Shipping question', id: 'shipping' });
      expect(await statuses(h, run.id)).toMatchObject({
        toShipping: 'succeeded',
        toRefund: 'skipped',
        toOther: 'skipped',
      });
      const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'classify')!;
      expect(node.usage).toMatchObject({ demo: true });
    });

    it('reads Chinese by characters, and takes "other" when nothing matches', async () => {
      const zh = [
        { id: 'tuikuan', name: '退款申请', description: '客户想要退钱' },
        { id: 'wuliu', name: '物流查询', description: '包裹到哪里了' },
      ];
      const g = graph({ classes: zh });
      g.edges[1].sourceHandle = 'tuikuan';
      g.edges[2].sourceHandle = 'wuliu';
      const wf = await h.createWorkflow(g);
      const refund = await h.runToEnd(wf, { q: '我想申请退款，钱什么时候退回？' });
      expect(refund.outputs).toMatchObject({ id: 'tuikuan', class: '退款申请' });
      const none = await h.runToEnd(wf, { q: 'Bonjour' });
      expect(none.status).toBe('succeeded');
      expect(none.outputs).toMatchObject({ id: 'other', class: 'other' });
      expect(await statuses(h, none.id)).toMatchObject({ toOther: 'succeeded', toRefund: 'skipped' });
    });
  });

  describe('on an OpenAI-compatible server', () => {
    let fake: FakeOpenAi;
    let onServer: Harness;
    beforeAll(async () => {
      fake = await startFakeOpenAi();
      onServer = await createHarness('pglite', {
        tdb: h.tdb,
        llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      });
    });
    afterAll(async () => {
      await onServer?.close();
      await fake?.close();
    });

    it('asks for the class by a JSON Schema naming the classes and routes by the id it answers', async () => {
      fake.script({ text: '{"class_id":"refund"}' });
      const run = await onServer.runToEnd(await onServer.createWorkflow(graph({ instruction: 'Be strict.' })), {
        q: 'money back',
      });
      expect(run.status).toBe('succeeded');
      expect(run.outputs).toMatchObject({ id: 'refund', class: 'Refund request' });
      expect(await statuses(onServer, run.id)).toMatchObject({ toRefund: 'succeeded', toShipping: 'skipped' });
      const req = fake.requests.at(-1);
      expect(req.temperature).toBe(0);
      expect(req.response_format.type).toBe('json_schema');
      const choices = req.response_format.json_schema.schema.properties.class_id.anyOf.map(
        (o: { const: string }) => o.const,
      );
      expect(choices).toEqual(['refund', 'shipping', 'other']);
      expect(req.messages[0].content).toContain('refund: Refund request — the customer wants their money back');
      expect(req.messages[0].content).toContain('Be strict.');
      expect(req.messages[1]).toEqual({ role: 'user', content: 'money back' });
    });

    it.each([
      ['a code fence around the JSON', 'Sure!\n```json\n{"class_id": "shipping"}\n```', 'shipping'],
      ['the class name instead of its id', '{"class_name": "shipping question"}', 'shipping'],
      ['a plain reply naming one class', 'This is a Refund request.', 'refund'],
      ['an id that is no class', '{"class_id": "billing"}', 'other'],
      ['a reply naming no class', 'I cannot tell.', 'other'],
    ])('reads %s', async (_what, text, id) => {
      fake.script({ text });
      const run = await onServer.runToEnd(await onServer.createWorkflow(graph()), { q: 'hello' });
      expect(run.status).toBe('succeeded');
      expect(run.outputs?.id).toBe(id);
    });

    it('asks with json_object for a server without JSON-schema output', async () => {
      fake.script({ text: '{"class_id":"shipping"}' });
      const run = await onServer.runToEnd(await onServer.createWorkflow(graph({ structuredOutput: 'json_object' })), {
        q: 'x',
      });
      expect(run.outputs?.id).toBe('shipping');
      expect(fake.requests.at(-1).response_format).toEqual({ type: 'json_object' });
    });
  });
});
