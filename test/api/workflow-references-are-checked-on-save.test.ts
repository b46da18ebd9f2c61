// Guarantees: a workflow's workspace references — knowledge bases, workflows as tools, credentials, agent tools
// (built-ins, the node's own workflow__ tools, mcp__<server>__ of a configured server) and skills — are checked when
// it is saved (create, PUT, import) and validated: an unknown one is a 400 with its JSON path and nothing is saved
// (or, for a draft and an import, a listed problem), `prefix*` patterns pass, the seeded example still validates,
// and GET /api/agent-tools lists the built-ins and each configured MCP server (a failing one with its error).
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as agentTools } from '@/app/api/agent-tools/route';
import { POST as createCred } from '@/app/api/credentials/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { checkReferences, collectReferences } from '@/lib/server/workflows/references';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';
import { seededWorkflowId, workflowCount } from './invalid-graph-cases';

const require = createRequire(import.meta.url);
const everythingBin = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

useFreshDataDir('paiflow-refs-');
const savedMcp = process.env.MCP_SERVERS;
process.env.MCP_SERVERS = JSON.stringify([
  { name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'] },
  { name: 'broken', command: path.join(__dirname, 'no-such-mcp-server') },
]);

let seededId: string;
let kbId: string;
let credId: string;
let childId: string;

/** start → agent (with `config`) → end. */
function agentGraph(config: Record<string, unknown>) {
  const g = simpleGraph() as any;
  g.nodes[1] = {
    id: 'a1',
    type: 'agent',
    position: { x: 200, y: 0 },
    data: { label: 'Agent', config: { task: 'Answer {{inputs.message}}', ...config } },
  };
  g.nodes[2].data.config.outputs = [{ name: 'text', value: '{{a1.output.text}}' }];
  g.edges = [
    { id: 'e1', source: 'start', target: 'a1' },
    { id: 'e2', source: 'a1', target: 'end' },
  ];
  return g;
}

const good = () => ({
  tools: ['calculator', 'knowledge_search', 'workflow__child', 'mcp__everything__echo', 'mcp__broken__*'],
  workflowTools: [{ workflowId: childId, name: 'child' }],
  knowledgeBaseIds: [kbId],
  credentialId: credId,
});

const bad = () => ({
  tools: ['calculator', 'no_such_tool', 'workflow__other', 'mcp__github__search', 'mcp__everything__*'],
  workflowTools: [{ workflowId: 'wf_missing', name: 'child' }],
  knowledgeBaseIds: [kbId, 'kb_missing'],
  credentialId: 'cred_missing',
});

const BAD_PATHS = {
  'nodes[1].data.config.tools[1]': 'UNKNOWN_TOOL',
  'nodes[1].data.config.tools[2]': 'UNKNOWN_TOOL',
  'nodes[1].data.config.tools[3]': 'UNKNOWN_TOOL',
  'nodes[1].data.config.workflowTools[0].workflowId': 'UNKNOWN_WORKFLOW',
  'nodes[1].data.config.knowledgeBaseIds[1]': 'UNKNOWN_KNOWLEDGE_BASE',
  'nodes[1].data.config.credentialId': 'UNKNOWN_CREDENTIAL',
};

const byPath = (errors: Array<{ path: string; code: string }>, prefix = '') =>
  Object.fromEntries(errors.map((e) => [e.path.slice(prefix.length), e.code]));

beforeAll(async () => {
  await getApp();
  seededId = await seededWorkflowId();
  const kb = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'Handbook' } });
  expect(kb.status, kb.text).toBe(201);
  kbId = kb.body.id;
  const cred = await call(createCred, 'POST', '/api/credentials', {
    body: { name: 'Provider', type: 'openai', data: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test' } },
  });
  expect(cred.status, cred.text).toBe(201);
  credId = cred.body.id;
  const child = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Child', graph: simpleGraph() } });
  expect(child.status, child.text).toBe(201);
  childId = child.body.id;
});
afterAll(async () => {
  await (await getApp()).close();
  if (savedMcp === undefined) delete process.env.MCP_SERVERS;
  else process.env.MCP_SERVERS = savedMcp;
});

describe('workspace references on save and validate', () => {
  it('a graph whose references all exist is saved, and validates clean', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Good', graph: agentGraph(good()) } });
    expect(a.status, a.text).toBe(201);
    expect(a.body.problems).toEqual([]);
    const v = await call(validateWf, 'POST', `/api/workflows/${a.body.id}/validate`, { params: { id: a.body.id } });
    expect(v.body).toMatchObject({ ok: true, errors: [] });
  });

  it('the seeded example still validates', async () => {
    const v = await call(validateWf, 'POST', `/api/workflows/${seededId}/validate`, { params: { id: seededId } });
    expect(v.body.errors).toEqual([]);
    expect(v.body.ok).toBe(true);
  });

  it('create refuses unknown references with a 400 naming each path, and saves nothing', async () => {
    const before = await workflowCount();
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Bad', graph: agentGraph(bad()) } });
    const err = expectError(a, 400, 'UNKNOWN_TOOL', 'graph.nodes[1].data.config.tools[1]');
    expect(byPath(err.errors!, 'graph.')).toEqual(BAD_PATHS);
    expect(err.errors!.every((e) => e.nodeIds?.[0] === 'a1')).toBe(true);
    expect(await workflowCount()).toBe(before);
  });

  it('PUT refuses them and leaves the stored graph as it was; a draft save keeps them as problems', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Edited', graph: agentGraph(good()) } });
    const id = a.body.id;
    const put = await call(putWf, 'PUT', `/api/workflows/${id}`, {
      params: { id },
      body: { graph: agentGraph(bad()) },
    });
    expect(byPath(expectError(put, 400, 'UNKNOWN_TOOL').errors!, 'graph.')).toEqual(BAD_PATHS);
    const stored = await call(getWf, 'GET', `/api/workflows/${id}`, { params: { id } });
    expect(stored.body.graph.nodes[1].data.config.credentialId).toBe(credId);

    const draft = await call(putWf, 'PUT', `/api/workflows/${id}?draft=1`, {
      params: { id },
      body: { graph: agentGraph(bad()) },
    });
    expect(draft.status, draft.text).toBe(200);
    expect(byPath(draft.body.problems)).toEqual(BAD_PATHS);
  });

  it('validate lists them; import keeps the workflow and lists them as problems', async () => {
    const v = await call(validateWf, 'POST', `/api/workflows/${seededId}/validate`, {
      params: { id: seededId },
      body: { graph: agentGraph(bad()) },
    });
    expect(v.body.ok).toBe(false);
    expect(byPath(v.body.errors)).toEqual(BAD_PATHS);
    for (const e of v.body.errors) expect(e.message.length).toBeGreaterThan(5);

    const imp = await call(importWf, 'POST', '/api/workflows/import', {
      body: { format: 'paiflow.workflow', formatVersion: 1, workflow: { name: 'Imported', graph: agentGraph(bad()) } },
    });
    expect(imp.status, imp.text).toBe(201);
    expect(byPath(imp.body.problems)).toEqual(BAD_PATHS);
  });

  it('references nested deeper (a worker of a multi-agent node, a sub-workflow node) are found by key', () => {
    const graph = {
      nodes: [
        {
          id: 'm',
          type: 'multi_agent',
          position: { x: 0, y: 0 },
          data: {
            config: {
              workflowTools: [{ workflowId: 'wf_a', name: 'a' }],
              worker: { tools: ['workflow__a', 'calculator'], skills: ['triage'] },
              task: '{{inputs.x}}',
            },
          },
        },
        { id: 'w', type: 'workflow', position: { x: 0, y: 0 }, data: { config: { workflowId: '{{inputs.id}}' } } },
        { id: 'w2', type: 'workflow', position: { x: 0, y: 0 }, data: { config: { workflowId: 'wf_b' } } },
      ],
      edges: [],
    };
    const refs = collectReferences(graph as any).map((r) => `${r.kind} ${r.value} ${r.path}`);
    expect(refs).toEqual([
      'workflow wf_a nodes[0].data.config.workflowTools[0].workflowId',
      'tool workflow__a nodes[0].data.config.worker.tools[0]',
      'tool calculator nodes[0].data.config.worker.tools[1]',
      'skill triage nodes[0].data.config.worker.skills[0]',
      'workflow wf_b nodes[2].data.config.workflowId',
    ]);
  });

  it('skills are checked when the deployment has a skill source, and not when it has none', async () => {
    const graph = agentGraph({ skills: ['triage', 'missing'] }) as any;
    const sources = {
      credentialIds: async () => new Set<string>(),
      knowledgeBaseIds: async () => new Set<string>(),
      workflowExists: async () => false,
      mcpServers: [],
      appTools: [],
    };
    expect(await checkReferences(graph, sources)).toEqual([]);
    const withSkills = { ...sources, skillNames: async () => new Set(['triage']) };
    expect(await checkReferences(graph, withSkills)).toEqual([
      {
        code: 'UNKNOWN_SKILL',
        message: 'no skill "missing" in this workspace',
        path: 'nodes[1].data.config.skills[1]',
        nodeIds: ['a1'],
      },
    ]);
  });
});

describe('GET /api/agent-tools', () => {
  it('lists the built-ins and the tools of each MCP server, a failing server with its error', async () => {
    const a = await call(agentTools, 'GET', '/api/agent-tools');
    expect(a.status, a.text).toBe(200);
    const names = a.body.builtin.map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['calculator', 'current_time', 'http_fetch', 'memory_save', 'memory_recall']),
    );
    expect(names).not.toContain('load_skill');
    const everything = a.body.mcp.find((s: { server: string }) => s.server === 'everything');
    expect(everything.error).toBeUndefined();
    expect(everything.tools.map((t: { name: string }) => t.name)).toContain('mcp__everything__echo');
    const broken = a.body.mcp.find((s: { server: string }) => s.server === 'broken');
    expect(broken.tools).toEqual([]);
    expect(broken.error).toMatch(/broken/);
  }, 60_000);

  it('never answered with a 500 or a stack trace', () => expectNoServerErrorsOrStacks());
});
