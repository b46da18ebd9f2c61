// Guarantees (issue 45): n8n's Text Classifier is a Question classifier node — its categories the classes, each n8n
// output its class's handle ("Other" with the fallback set to it), items passing on unchanged so later nodes read the
// classifier's input as $json — and the Information Extractor a Parameter extractor node — its attributes (or the
// fields of its JSON example / schema) the parameters, $json.output.<name> read as output.<name>. Both validate, the
// chat model folds in, and an imported workflow runs offline down the class the demo model picked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertN8n } from '@/lib/server/workflows/import/n8n';
import { createHarness, type Harness } from '@/test/support/harness';

const registry = createDefaultRegistry();
const errors = (graph: unknown) => validateGraph(graph, registry).errors;
const corpus = (file: string) => readFileSync(path.join(__dirname, '../fixtures/import-corpus/n8n', file), 'utf8');
const node = (name: string, type: string, parameters: object = {}) => ({ name, type, parameters, typeVersion: 1 });
const LC = '@n8n/n8n-nodes-langchain.';
const config = (r: ReturnType<typeof convertN8n>, type: string) =>
  r.graph.nodes.find((n) => n.type === type)!.data.config as Record<string, any>;

function classifierWorkflow(fallback?: string) {
  return {
    nodes: [
      node('Start', 'n8n-nodes-base.manualTrigger'),
      node('Topic', 'n8n-nodes-base.set', { values: { string: [{ name: 'text', value: 'My parcel never arrived' }] } }),
      node('Classify', `${LC}textClassifier`, {
        inputText: '={{ $json.text }}',
        categories: {
          categories: [
            { category: 'refund', description: 'wants money back' },
            { category: 'shipping issue', description: 'parcel delivery problems, never arrived' },
          ],
        },
        options: fallback ? { fallback } : {},
      }),
      node('Model', `${LC}lmChatOpenAi`, { model: 'gpt-4o-mini' }),
      node('Refund', 'n8n-nodes-base.set', {
        values: { string: [{ name: 'route', value: '=refund {{ $json.text }}' }] },
      }),
      node('Ship', 'n8n-nodes-base.set', { values: { string: [{ name: 'route', value: '=ship {{ $json.text }}' }] } }),
      node('Other', 'n8n-nodes-base.set', { values: { string: [{ name: 'route', value: 'other' }] } }),
    ],
    connections: {
      Start: { main: [[{ node: 'Topic', index: 0 }]] },
      Topic: { main: [[{ node: 'Classify', index: 0 }]] },
      Model: { ai_languageModel: [[{ node: 'Classify', type: 'ai_languageModel', index: 0 }]] },
      Classify: {
        main: [
          [{ node: 'Refund', index: 0 }],
          [{ node: 'Ship', index: 0 }],
          ...(fallback === 'other' ? [[{ node: 'Other', index: 0 }]] : []),
        ],
      },
    },
  };
}

describe('n8n Text Classifier', () => {
  it('is a Question classifier: a class per category, an output per class, items passed on', () => {
    const r = convertN8n(classifierWorkflow('other'));
    expect(errors(r.graph)).toEqual([]);
    const q = r.graph.nodes.find((n) => n.type === 'question_classifier')!;
    expect(q.data.config).toMatchObject({
      model: 'gpt-4o-mini',
      query: '{{topic.output.json.text}}',
      classes: [
        { id: 'refund', name: 'refund', description: 'wants money back' },
        { id: 'shipping_issue', name: 'shipping issue' },
      ],
    });
    const out = Object.fromEntries(
      r.graph.edges.filter((e) => e.source === q.id).map((e) => [e.sourceHandle, e.target]),
    );
    expect(out).toEqual({ refund: 'refund', shipping_issue: 'ship', other: 'other' });
    expect(JSON.stringify(r.graph.nodes.find((n) => n.id === 'ship')!.data.config)).toContain(
      '{{topic.output.json.text}}',
    );
    expect(r.report.mapped.map((e) => e.title)).toEqual(expect.arrayContaining(['Classify', 'Model']));
  });

  it('a real export with a classifier validates; its categories are the classes', () => {
    const r = convertN8n(JSON.parse(corpus('vibe-marketer--1278_Code_Schedule_Monitor_Webhook.json')));
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'question_classifier').classes.map((k: { id: string }) => k.id)).toEqual([
      'relevant',
      'not_relevant',
    ]);
  });

  describe('run offline', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness('pglite');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('goes down the class the demo model picked, reading the classifier’s input', async () => {
      const r = convertN8n(classifierWorkflow('other'));
      const run = await h.runToEnd(await h.createWorkflow(r.graph as unknown as Graph));
      expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
      const status = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status]));
      expect(status).toMatchObject({ ship: 'succeeded', refund: 'skipped', other: 'skipped' });
    });
  });
});

describe('n8n Information Extractor', () => {
  it('is a Parameter extractor: attributes are parameters, $json.output.<name> is output.<name>', () => {
    const r = convertN8n({
      nodes: [
        node('Chat', `${LC}chatTrigger`),
        node('Extract', `${LC}informationExtractor`, {
          text: '={{ $json.chatInput }}',
          attributes: {
            attributes: [
              { name: 'city', type: 'string', description: 'The city', required: true },
              { name: 'when', type: 'date', description: 'Travel date' },
              { name: 'adults', type: 'number' },
            ],
          },
          options: { systemPromptTemplate: 'Only travel.' },
        }),
        node('Model', `${LC}lmChatOpenAi`, { model: 'gpt-4o' }),
        node('Use', 'n8n-nodes-base.set', { values: { string: [{ name: 'c', value: '={{ $json.output.city }}' }] } }),
      ],
      connections: {
        Chat: { main: [[{ node: 'Extract', index: 0 }]] },
        Model: { ai_languageModel: [[{ node: 'Extract', type: 'ai_languageModel', index: 0 }]] },
        Extract: { main: [[{ node: 'Use', index: 0 }]] },
      },
    });
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'parameter_extractor')).toMatchObject({
      model: 'gpt-4o',
      instruction: 'Only travel.',
      parameters: [
        { name: 'city', type: 'string', description: 'The city', required: true },
        { name: 'when', type: 'string', description: 'Travel date (a date, YYYY-MM-DD)', required: false },
        { name: 'adults', type: 'number', description: '', required: false },
      ],
    });
    expect(JSON.stringify(config(r, 'template'))).toContain('{{extract.output.city}}');
    expect(r.report.mapped.map((e) => e.title)).toEqual(expect.arrayContaining(['Extract', 'Model']));
  });

  it('takes the fields of a JSON example (a real export) as typed parameters', () => {
    const r = convertN8n(
      JSON.parse(
        corpus('enescingoz--Personal-Shopper-Chatbot-for-WooCommerce-with-RAG-using-Google-Drive-and-openAI.json'),
      ),
    );
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'parameter_extractor').parameters).toEqual([
      { name: 'search_intent', type: 'boolean', description: '', required: false },
      { name: 'search_params', type: 'array[object]', description: '', required: false },
    ]);
  });
});
