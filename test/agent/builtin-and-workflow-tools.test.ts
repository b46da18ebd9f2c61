// Guarantees: an Agent can call another workflow as a tool (start + wait + outputs, schema from its start node) with
// nesting bounded; knowledge_search is offered only when a knowledge service exists and the node names a knowledge
// base, and returns [n]-cited passages; http_fetch goes through the SSRF-guarded fetch; current_time answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KnowledgeSearchRequest, KnowledgeService } from '@/engine/knowledge/types';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, type AgentHarness } from './support/agent-harness';

const greeterGraph: Graph = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'name', type: 'string', required: true, description: 'who to greet' }] } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 200, y: 0 },
      data: { config: { outputs: [{ name: 'greeting', value: 'Hello, {{inputs.name}}!' }] } },
    },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
};

describe('built-in and workflow tools', () => {
  let fake: FakeOpenAi;
  let h: AgentHarness;
  let web: Server;
  let webPort = 0;
  const searches: Array<{ kb: string; req: KnowledgeSearchRequest }> = [];
  const knowledge: KnowledgeService = {
    async search(kb, req) {
      searches.push({ kb, req });
      return {
        query: req.query,
        mode: 'hybrid',
        hits: [
          {
            citation: '[1]',
            documentId: 'd1',
            title: 'Refund policy',
            chunkIndex: 0,
            page: null,
            start: 0,
            end: 10,
            text: 'Refunds are possible within 30 days.',
            score: 0.9,
            bm25: 1,
            knn: 0.8,
          },
        ],
      };
    },
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    web = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`hello from ${req.url}`);
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;
    h = await createAgentHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      knowledge,
      fetch: createGuardedFetch({ allowlist: [`127.0.0.1:${webPort}`] }),
      memory: false,
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await new Promise((r) => web?.close(r));
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setDefault();
  });

  it('calls another workflow as a tool and gets its outputs; the schema comes from its start node', async () => {
    const child = await h.createWorkflow(greeterGraph, 'Greeter');
    fake.script(
      { toolCalls: [{ id: 'w1', name: 'workflow__greeter', arguments: { name: 'Ada' } }] },
      { text: 'greeted' },
    );
    const wf = await h.createWorkflow(
      agentGraph({
        tools: ['workflow__greeter'],
        workflowTools: [{ workflowId: child, name: 'greeter', description: 'Greets someone' }],
      }),
    );
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    const tool = fake.requests[0].tools[0].function;
    expect(tool).toMatchObject({
      name: 'workflow__greeter',
      description: 'Greets someone',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'who to greet' } },
        required: ['name'],
      },
    });
    expect(fake.requests[1].messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'w1',
      content: '{"greeting":"Hello, Ada!"}',
    });
    const childRuns = await h.store.listRuns(child);
    expect(childRuns).toHaveLength(1);
    expect(childRuns[0].status).toBe('succeeded');
  });

  it('a child run that fails is a tool failure, not a crash', async () => {
    const child = await h.createWorkflow(greeterGraph, 'Greeter');
    fake.script({ toolCalls: [{ id: 'w2', name: 'workflow__greeter', arguments: {} }] }, { text: 'could not greet' });
    const run = await h.runToEnd(
      await h.createWorkflow(
        agentGraph({ tools: ['workflow__*'], workflowTools: [{ workflowId: child, name: 'greeter' }] }),
      ),
    );
    expect(run.status).toBe('succeeded');
    expect(fake.requests[1].messages.at(-1).content).toMatch(/^tool failed: input "name" is required/);
  });

  it('a workflow that calls itself is stopped at the nesting limit and every level still answers', async () => {
    const self = await h.createWorkflow(agentGraph({}), 'Recursive');
    await h.store.updateWorkflow(self, {
      graph: agentGraph({ tools: ['workflow__self'], workflowTools: [{ workflowId: self, name: 'self' }] }),
    });
    fake.setDefault((body) =>
      body.messages.at(-1)?.role === 'tool'
        ? { text: `done after: ${body.messages.at(-1).content.slice(0, 60)}` }
        : { toolCalls: [{ name: 'workflow__self', arguments: { question: 'again' } }] },
    );
    const run = await h.runToEnd(self);
    expect(run.status).toBe('succeeded');
    const runs = await h.store.listRuns(self);
    expect(runs).toHaveLength(4); // the top run + 3 nested levels
    const deepest = fake.requests.find((r) =>
      String(r.messages.at(-1)?.content).startsWith(
        'policy denied: workflows may call other workflows at most 3 levels deep',
      ),
    );
    expect(deepest).toBeTruthy();
  });

  it('knowledge_search is offered only with a knowledge service and a knowledge base, and cites passages', async () => {
    fake.script(
      { toolCalls: [{ id: 'k1', name: 'knowledge_search', arguments: { query: 'refund window', topK: 3 } }] },
      { text: '30 days [1]' },
    );
    const run = await h.runToEnd(
      await h.createWorkflow(agentGraph({ tools: ['knowledge_search'], knowledgeBaseIds: ['kb_policies'] })),
    );
    expect(run.outputs?.answer).toBe('30 days [1]');
    expect(searches.at(-1)).toMatchObject({ kb: 'kb_policies', req: { query: 'refund window', topK: 3 } });
    const result = fake.requests[1].messages.at(-1).content;
    expect(result).toContain('[1] Refund policy');
    expect(result).toContain('Refunds are possible within 30 days.');

    // Without knowledge bases named on the node, or without the service, the tool is not offered at all.
    fake.requests.length = 0;
    fake.script({ text: 'no tools' });
    const r2 = await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['knowledge_search', 'calculator'] })));
    expect(fake.requests[0].tools.map((t: any) => t.function.name)).toEqual(['calculator']);
    const warn = (await h.events(r2.id)).find((e) => e.type === 'node.progress' && e.data.warnings);
    expect((warn!.data.warnings as string[]).join(' ')).toMatch(/not available here: knowledge_search/);

    const saved = h.services.knowledge;
    h.services.knowledge = undefined;
    try {
      fake.requests.length = 0;
      fake.script({ text: 'no tools' });
      await h.runToEnd(
        await h.createWorkflow(
          agentGraph({ tools: ['knowledge_search', 'calculator'], knowledgeBaseIds: ['kb_policies'] }),
        ),
      );
      expect(fake.requests[0].tools.map((t: any) => t.function.name)).toEqual(['calculator']);
    } finally {
      h.services.knowledge = saved;
    }
  });

  it('http_fetch goes through the guarded fetch (allowlisted here) and current_time answers', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 't1', name: 'http_fetch', arguments: { url: `http://127.0.0.1:${webPort}/page` } },
          { id: 't2', name: 'current_time', arguments: { timezone: 'Europe/Paris' } },
          { id: 't3', name: 'current_time', arguments: { timezone: 'Mars/Olympus' } },
        ],
      },
      { text: 'fetched' },
    );
    await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['http_fetch', 'current_time'] })));
    const [page, time, bad] = fake.requests[1].messages.filter((m: any) => m.role === 'tool');
    expect(page.content).toBe('HTTP 200\ncontent-type: text/plain\n\nhello from /page');
    const t = JSON.parse(time.content);
    expect(Math.abs(Date.parse(t.utc) - Date.now())).toBeLessThan(60_000);
    expect(t.timezone).toBe('Europe/Paris');
    expect(bad.content).toBe('tool failed: unknown time zone "Mars/Olympus"');
  });
});
