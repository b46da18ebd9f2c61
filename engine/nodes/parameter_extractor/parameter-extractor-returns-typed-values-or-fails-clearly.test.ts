// Guarantees: a Parameter extractor node's output is one field per parameter, typed as declared (numbers, booleans,
// lists, objects; null where an optional one was not found), which later nodes read as {{<id>.output.<name>}}. The
// model is asked by a JSON Schema of the parameters; a reply that does not match is sent back once with what was
// wrong, and a second wrong reply fails the node with PARAMETERS_INVALID listing the problems. Offline, the demo
// model fills the parameters from the text (numbers, quoted strings, e-mails, dates, "name: value"), and the run says
// so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '@/test/support/fake-openai-server';
import { createHarness, type Harness } from '@/test/support/harness';

const PARAMETERS = [
  { name: 'destination', type: 'string', description: 'The city to travel to', required: true },
  { name: 'tickets', type: 'number', description: 'How many tickets', required: true },
  { name: 'email', type: 'string', description: 'Where to send the booking' },
  { name: 'date', type: 'string', description: 'The travel date' },
  { name: 'window', type: 'boolean', description: 'A window seat' },
  { name: 'tags', type: 'array[string]', description: 'Labels' },
];

function graph(extra: Record<string, unknown> = {}): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'q', type: 'string' }] } },
      },
      {
        id: 'extract',
        type: 'parameter_extractor',
        position: { x: 1, y: 0 },
        data: { config: { model: 'gpt-x', query: '{{inputs.q}}', parameters: PARAMETERS, ...extra } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 2, y: 0 },
        data: {
          config: {
            outputs: [
              { name: 'all', value: '{{extract.output}}' },
              { name: 'tickets', value: '{{extract.output.tickets}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'extract' },
      { id: 'e2', source: 'extract', target: 'end' },
    ],
  };
}

describe('the Parameter extractor node', () => {
  describe('on the offline demo model', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness('pglite');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('fills the parameters from the text by their types, and marks the run demo', async () => {
      const run = await h.runToEnd(await h.createWorkflow(graph()), {
        q:
          'Destination: Paris. Book 2 tickets on 2025-03-14, window: yes, tags "work" and "urgent"; ' +
          'mail a.b@example.com',
      });
      expect(run.status).toBe('succeeded');
      expect(run.outputs?.all).toEqual({
        destination: 'Paris',
        tickets: 2,
        email: 'a.b@example.com',
        date: '2025-03-14',
        window: true,
        tags: ['work', 'urgent'],
      });
      expect(run.outputs?.tickets).toBe(2);
      const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'extract')!;
      expect(node.usage).toMatchObject({ demo: true });
    });

    it('reads Chinese dates and gives empty values (null when optional) for what the text does not hold', async () => {
      const run = await h.runToEnd(await h.createWorkflow(graph()), { q: '我想在2025年3月4日出发' });
      expect(run.status).toBe('succeeded');
      expect(run.outputs?.all).toEqual({
        destination: '',
        tickets: 0,
        email: null,
        date: '2025-03-04',
        window: null,
        tags: [],
      });
    });
  });

  describe('on an OpenAI-compatible server', () => {
    let fake: FakeOpenAi;
    let h: Harness;
    beforeAll(async () => {
      fake = await startFakeOpenAi();
      h = await createHarness('pglite', {
        llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      });
    });
    afterAll(async () => {
      await h?.close();
      await fake?.close();
    });

    it('asks by a JSON Schema of the parameters and returns the typed object (numbers as text coerced)', async () => {
      fake.script({ text: '{"destination":"Rome","tickets":"3","window":false,"tags":["x"]}' });
      const run = await h.runToEnd(await h.createWorkflow(graph({ instruction: 'Cities in English.' })), { q: 'q' });
      expect(run.status).toBe('succeeded');
      expect(run.outputs?.all).toEqual({
        destination: 'Rome',
        tickets: 3,
        email: null,
        date: null,
        window: false,
        tags: ['x'],
      });
      const req = fake.requests.at(-1);
      expect(req.response_format.type).toBe('json_schema');
      const schema = req.response_format.json_schema.schema;
      expect(schema.required).toEqual(['destination', 'tickets']);
      expect(schema.properties.tickets).toEqual({ type: 'number', description: 'How many tickets' });
      expect(schema.properties.tags.anyOf[0]).toEqual({ type: 'array', items: { type: 'string' } });
      expect(req.messages[0].content).toContain('Cities in English.');
    });

    it('sends an invalid reply back once with what was wrong, and takes the mended one', async () => {
      fake.script({ text: 'no idea' }, { text: '{"destination":"Oslo","tickets":1}' });
      const before = fake.requests.length;
      const run = await h.runToEnd(await h.createWorkflow(graph()), { q: 'q' });
      expect(run.status).toBe('succeeded');
      expect(run.outputs?.tickets).toBe(1);
      expect(fake.requests.length - before).toBe(2);
      const retry = fake.requests.at(-1).messages;
      expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'no idea' });
      expect(retry.at(-1).content).toMatch(/does not match the schema:\n.*not a JSON object/);
    });

    it('fails with PARAMETERS_INVALID, saying what was wrong, when the retry is wrong too', async () => {
      fake.script({ text: '{"destination":"Oslo"}' }, { text: '{"destination":7,"tickets":"many"}' });
      const run = await h.runToEnd(await h.createWorkflow(graph()), { q: 'q' });
      expect(run.status).toBe('failed');
      const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'extract')!;
      expect(node.error?.code).toBe('PARAMETERS_INVALID');
      expect(node.error?.message).toMatch(/\/destination/);
      const retry = fake.requests.at(-1).messages.at(-1).content;
      expect(retry).toMatch(/tickets/);
    });
  });
});
