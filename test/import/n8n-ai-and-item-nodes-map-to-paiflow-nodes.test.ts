// Guarantees: n8n's AI and item-list nodes map to PaiFlow nodes that validate: the legacy OpenAI node is an LLM node
// whose text later nodes read as $json.message.content; chat memory is the conversation's `history` input; a
// structured output parser puts a Basic LLM Chain in JSON mode ($json.output.x → output.json.x); an HTTP Request tool
// gives the agent http_fetch; Filter is a Condition whose failing item stops; Limit / Sort / Remove Duplicates change
// nothing on one item; a node read with $('Node') from an earlier sibling branch is made upstream.
import { describe, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertN8n } from '@/lib/server/workflows/import/n8n';

const registry = createDefaultRegistry();
const errors = (graph: unknown) => validateGraph(graph, registry).errors;
const node = (name: string, type: string, parameters: object = {}, typeVersion = 1) => ({
  name,
  type,
  parameters,
  typeVersion,
});
const main = (...targets: string[]) => ({ main: [targets.map((node) => ({ node, index: 0 }))] });
const config = (r: ReturnType<typeof convertN8n>, id: string) =>
  r.graph.nodes.find((n) => n.id === id)!.data.config as Record<string, any>;

describe('n8n AI nodes', () => {
  it('the legacy OpenAI chat node is an LLM node; the next node reads its reply', () => {
    const r = convertN8n({
      nodes: [
        node('Start', 'n8n-nodes-base.manualTrigger'),
        node('OpenAI', 'n8n-nodes-base.openAi', {
          resource: 'chat',
          model: 'gpt-4o',
          prompt: { messages: [{ role: 'system', content: 'Be brief.' }, { content: 'Hello' }] },
        }),
        node('Reply', 'n8n-nodes-base.set', {
          values: { string: [{ name: 'reply', value: '={{ $json.message.content }}' }] },
        }),
      ],
      connections: { Start: main('OpenAI'), OpenAI: main('Reply') },
    });
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'openai')).toMatchObject({ model: 'gpt-4o', systemPrompt: 'Be brief.', userPrompt: 'Hello' });
    expect(config(r, 'reply').template).toContain('{{openai.output.text}}');
    expect(r.report.mapped.map((e) => e.title)).toContain('OpenAI');
  });

  it('memory is the history input, a structured parser is JSON mode, an HTTP tool is http_fetch', () => {
    const r = convertN8n({
      nodes: [
        node('Chat', '@n8n/n8n-nodes-langchain.chatTrigger'),
        node(
          'Chain',
          '@n8n/n8n-nodes-langchain.chainLlm',
          { promptType: 'define', text: '={{ $json.chatInput }}' },
          1.5,
        ),
        node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', { model: 'gpt-4o-mini' }),
        node('Memory', '@n8n/n8n-nodes-langchain.memoryBufferWindow', { contextWindowLength: 30 }),
        node('Parser', '@n8n/n8n-nodes-langchain.outputParserStructured', { jsonSchemaExample: '{"city": "Paris"}' }),
        node(
          'Agent',
          '@n8n/n8n-nodes-langchain.agent',
          { promptType: 'define', text: '={{ $json.output.city }}' },
          1.7,
        ),
        node('Weather', '@n8n/n8n-nodes-langchain.toolHttpRequest', {
          toolDescription: 'the weather of a city',
          url: 'https://weather.example/{city}',
        }),
      ],
      connections: {
        Chat: main('Chain'),
        Chain: main('Agent'),
        Model: { ai_languageModel: [[{ node: 'Chain', index: 0 }], [{ node: 'Agent', index: 0 }]] },
        Memory: { ai_memory: [[{ node: 'Chain', index: 0 }]] },
        Parser: { ai_outputParser: [[{ node: 'Chain', index: 0 }]] },
        Weather: { ai_tool: [[{ node: 'Agent', index: 0 }]] },
      },
    });
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'chain')).toMatchObject({ jsonMode: true, history: '{{inputs.history}}' });
    expect(config(r, 'chain').systemPrompt).toContain('{"city": "Paris"}');
    expect(config(r, 'agent')).toMatchObject({ task: '{{chain.output.json.city}}', tools: ['http_fetch'] });
    expect(config(r, 'agent').systemPrompt).toContain('https://weather.example/{city}');
    const start = config(r, 'start').inputs.map((i: { name: string }) => i.name);
    expect(start).toContain('history');
    expect(r.report.mapped.find((e) => e.title === 'Memory')?.why).toMatch(/history/);
    expect(r.report.dropped).toEqual([]);
  });
});

describe('n8n item-list nodes on one item', () => {
  it('Filter stops an item that fails; Limit and Sort change nothing; Aggregate lists the field', () => {
    const r = convertN8n({
      nodes: [
        node('Hook', 'n8n-nodes-base.webhook'),
        node('Filter', 'n8n-nodes-base.filter', {
          conditions: {
            conditions: [
              { leftValue: '={{ $json.body.n }}', rightValue: 3, operator: { type: 'number', operation: 'gt' } },
            ],
          },
        }),
        node('Limit', 'n8n-nodes-base.limit', { maxItems: 1 }),
        node('Sort', 'n8n-nodes-base.sort'),
        node('Aggregate', 'n8n-nodes-base.aggregate', {
          fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'body.n' }] },
        }),
      ],
      connections: { Hook: main('Filter'), Filter: main('Limit'), Limit: main('Sort'), Sort: main('Aggregate') },
    });
    expect(errors(r.graph)).toEqual([]);
    expect(r.graph.edges.find((e) => e.source === 'filter')).toMatchObject({
      target: 'aggregate',
      sourceHandle: 'true',
    });
    expect(config(r, 'aggregate').template).toContain('"{{inputs.body.n}}"');
    expect(r.report.mapped.map((e) => e.title)).toEqual(expect.arrayContaining(['Filter', 'Limit', 'Sort']));
  });
});

it("$('Node') of a node that ran earlier on a sibling branch makes that node upstream", () => {
  const r = convertN8n({
    nodes: [
      node('Start', 'n8n-nodes-base.manualTrigger'),
      node('Config', 'n8n-nodes-base.set', { values: { string: [{ name: 'key', value: 'abc' }] } }),
      node('Use', 'n8n-nodes-base.set', {
        values: { string: [{ name: 'k', value: "={{ $('Config').item.json.key }}" }] },
      }),
    ],
    connections: {
      Start: {
        main: [
          [
            { node: 'Config', index: 0 },
            { node: 'Use', index: 0 },
          ],
        ],
      },
    },
  });
  expect(errors(r.graph)).toEqual([]);
  expect(r.graph.edges.some((e) => e.source === 'config' && e.target === 'use')).toBe(true);
});
