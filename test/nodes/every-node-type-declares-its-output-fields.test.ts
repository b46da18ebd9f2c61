// Guarantees: every registered node type declares the fields of its output (so the editor's `{{` autocomplete
// offers them from the same definition, and a new node type cannot forget to), each a readable template path;
// GET /api/node-types hands them to the editor; and what real nodes return has no top-level field they did not
// declare. Real app on the embedded database, the offline demo model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as nodeTypes } from '@/app/api/node-types/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { parsePath } from '@/engine/template/resolve';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';

useFreshDataDir('paiflow-output-fields-');
process.env.SEED_EXAMPLE = '0';

/** Outputs with no fixed fields, and why: declared as an empty list on purpose. */
const NO_FIXED_FIELDS: Record<string, string> = {
  start: 'its output is the run inputs, read as {{inputs.<name>}}',
  end: 'its output is the outputs named in its config; nothing runs after it',
  code: 'its output is whatever main(input) returns',
  parameter_extractor: 'its output is the parameters its config names, read as {{<id>.output.<name>}}',
};
/**
 * Node types added while outputFields was introduced, by other changes, that do not declare it yet. Remove a type
 * from here when it declares its fields (this test fails until then, so the list cannot go stale).
 */
const KNOWN_GAPS = new Set<string>();

const registry = createDefaultRegistry();

describe('output fields of node types', () => {
  it('are declared by every node type, as template paths with a description', () => {
    const missing: string[] = [];
    for (const def of registry.latest()) {
      if (KNOWN_GAPS.has(def.type)) {
        expect(def.outputFields, `${def.type} declares outputFields now: remove it from KNOWN_GAPS`).toBeUndefined();
        continue;
      }
      if (!def.outputFields) {
        missing.push(def.type);
        continue;
      }
      if (def.type in NO_FIXED_FIELDS) {
        expect(def.outputFields, `${def.type}: ${NO_FIXED_FIELDS[def.type]}`).toEqual([]);
        continue;
      }
      expect(def.outputFields.length, `${def.type} declares no output fields`).toBeGreaterThan(0);
      const paths = def.outputFields.map((f) => f.path);
      expect(new Set(paths).size, `${def.type} lists a field twice`).toBe(paths.length);
      for (const f of def.outputFields) {
        expect(parsePath(`n1.output.${f.path}`), `${def.type}.${f.path} is not a template path`).not.toBeNull();
        expect(f.description.length, `${def.type}.${f.path} has no description`).toBeGreaterThan(3);
      }
    }
    expect(missing, 'node types without outputFields (engine/node-kit/define.ts)').toEqual([]);
  });

  it('the knowledge, agent and human-input nodes offer theirs', () => {
    const paths = (type: string) => registry.get(type).outputFields?.map((f) => f.path);
    expect(paths('knowledge')).toEqual(expect.arrayContaining(['context', 'hits', 'query']));
    expect(paths('agent')).toEqual(expect.arrayContaining(['text', 'toolCalls', 'usage']));
    expect(paths('human_input')).toEqual(expect.arrayContaining(['answer']));
  });
});

describe('over the API', () => {
  beforeAll(async () => {
    await getApp();
  });
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
  });

  it('GET /api/node-types lists each type’s output fields', async () => {
    const a = await call(nodeTypes, 'GET', '/api/node-types');
    expect(a.status).toBe(200);
    for (const t of a.body as Array<{ type: string; outputFields: unknown }>) {
      const def = registry.get(t.type);
      expect(t.outputFields, t.type).toEqual(def.outputFields ?? []);
    }
  });

  it('real nodes return no top-level field they did not declare', async () => {
    const node = (id: string, type: string, config: Record<string, unknown>, x: number) => ({
      id,
      type,
      position: { x, y: 0 },
      data: { config },
    });
    const graph = {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'q', type: 'string' }] }, 0),
        node('tText', 'template', { template: 'Q: {{inputs.q}}', format: 'text' }, 1),
        node('tJson', 'template', { template: '{"q": "{{inputs.q}}"}', format: 'json' }, 2),
        node('ask', 'llm', { userPrompt: '{{tText.output.text}}' }, 3),
        node(
          'route',
          'condition',
          { branches: [{ id: 'yes', conditions: [{ left: '{{ask.output.text}}', op: 'not_empty' }] }] },
          4,
        ),
        node('end', 'end', { outputs: [{ name: 'a', value: '{{ask.output.text}}' }] }, 5),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'tText' },
        { id: 'e2', source: 'tText', target: 'tJson' },
        { id: 'e3', source: 'tJson', target: 'ask' },
        { id: 'e4', source: 'ask', target: 'route' },
        { id: 'e5', source: 'route', target: 'end', sourceHandle: 'yes' },
        { id: 'e6', source: 'route', target: 'end', sourceHandle: 'else' },
      ],
    };
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Fields', graph } });
    expect(wf.status, wf.text).toBe(201);
    const id = wf.body.id;
    const r = await call(startRun, 'POST', `/api/workflows/${id}/runs`, {
      params: { id },
      body: { inputs: { q: 'hi' } },
    });
    expect(r.status, r.text).toBe(202);
    const run = await waitForRun(getRun, r.body.runId);
    expect(run.status).toBe('succeeded');
    for (const n of run.nodes as Array<{ nodeId: string; type: string; output: Record<string, unknown> }>) {
      if (n.type in NO_FIXED_FIELDS) continue;
      const declared = new Set(registry.get(n.type).outputFields!.map((f) => f.path.split(/[.[]/)[0]));
      for (const key of Object.keys(n.output ?? {}))
        expect(declared, `${n.nodeId} (${n.type}) returns "${key}"`).toContain(key);
    }
  });
});
