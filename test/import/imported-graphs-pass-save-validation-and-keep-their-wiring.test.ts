// Guarantees: what a Dify or n8n import makes is a graph PaiFlow's validator accepts (the fixtures, real-shaped
// exports, with no problem at all), and its wiring keeps the source's meaning: a dropped node's neighbours are joined
// on the same branch, an iteration's body loops back to its Loop node (also in Dify's older format without an
// iteration-start), a missing Start or End is added and reported, a Switch's numbered fallback routes "else" to that
// output, a field Edit Fields does not set is read from its input, and code in an expression is reported, not kept;
// a key of the source (`__proto__`) never rewires an object the import builds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertDify } from '@/lib/server/workflows/import/dify';
import { convertN8n } from '@/lib/server/workflows/import/n8n';
import type { ImportReport } from '@/lib/server/workflows/import/report';

const registry = createDefaultRegistry();
const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name), 'utf8');
const problems = (graph: unknown) => validateGraph(graph, registry).errors;
const edges = (g: { edges: Array<{ source: string; target: string; sourceHandle?: string }> }) =>
  g.edges.map((e) => `${e.source}->${e.target}${e.sourceHandle ? `:${e.sourceHandle}` : ''}`).sort();
const all = (r: ImportReport) => [...r.mapped, ...r.approximated, ...r.dropped];

/** A Dify workflow-mode DSL from nodes and edges (as [source, target, handle?]). */
function dify(nodes: object[], links: Array<[string, string, string?]>) {
  const doc = {
    app: { name: 'T', mode: 'workflow' },
    kind: 'app',
    version: '0.3.1',
    workflow: {
      graph: {
        nodes,
        edges: links.map(([source, target, sourceHandle = 'source']) => ({ source, target, sourceHandle })),
      },
    },
  };
  return convertDify(JSON.stringify(doc)); // JSON is YAML too
}
const dn = (id: string, type: string, data: object = {}, extra: object = {}) => ({
  id,
  type: 'custom',
  data: { type, title: id, ...data },
  position: { x: 0, y: 0 },
  ...extra,
});
const start = dn('s', 'start', { variables: [{ variable: 'q', type: 'text-input', required: true }] });
const end = (id: string, sel: string[]) => dn(id, 'end', { outputs: [{ variable: 'out', value_selector: sel }] });

describe('the fixtures', () => {
  it.each(['dify-workflow-article-helper.yml', 'dify-advanced-chat-support.yml'])('%s validates', (name) => {
    expect(problems(convertDify(fixture(name)).graph)).toEqual([]);
  });

  it('the n8n export validates, from the object and from its text alike', () => {
    const text = fixture('n8n-article-helper.json');
    const fromText = convertN8n(text);
    expect(problems(fromText.graph)).toEqual([]);
    expect(convertN8n(JSON.parse(text))).toEqual(fromText);
  });
});

describe('Dify wiring', () => {
  it("joins a dropped node's neighbours on the same branch, and reports the references it took away", () => {
    const cond = dn('c', 'if-else', {
      cases: [
        {
          case_id: 'true',
          logical_operator: 'and',
          conditions: [{ variable_selector: ['s', 'q'], comparison_operator: 'not empty' }],
        },
      ],
    });
    const r = dify(
      [start, cond, dn('t', 'tool'), dn('x', 'datasource'), end('e', ['t', 'text']), end('f', ['s', 'q'])],
      [
        ['s', 'c'],
        ['c', 't', 'true'],
        ['t', 'x'],
        ['x', 'e'],
        ['c', 'f', 'false'],
      ],
    );
    expect(edges(r.graph)).toEqual(['c->e:true', 'c->f:else', 's->c']);
    expect(problems(r.graph)).toEqual([]);
    expect(r.report.dropped.map((d) => d.id)).toEqual(['t', 'x']);
    expect(all(r.report).find((e) => e.id === 'e')).toMatchObject({ why: expect.stringContaining('{{#t.text#}}') });
  });

  it('wires an iteration of the older format (no iteration-start) as a loop body', () => {
    const it = dn('it', 'iteration', {
      iterator_selector: ['s', 'q'],
      output_selector: ['b', 'output'],
      start_node_id: 'b',
    });
    const body = dn(
      'b',
      'template-transform',
      { template: '{{ x }}', variables: [{ variable: 'x', value_selector: ['it', 'item'] }] },
      { parentId: 'it' },
    );
    const r = dify(
      [start, it, body, end('e', ['it', 'output'])],
      [
        ['s', 'it'],
        ['it', 'e'],
      ],
    );
    expect(edges(r.graph)).toEqual(['b->it', 'it->b:body', 'it->e:done', 's->it']);
    expect(r.graph.nodes.find((n) => n.id === 'b')?.data.config.template).toBe('{{it.output.item}}');
    expect(problems(r.graph)).toEqual([]);
  });

  it('adds a Start node when there is none, drops failure branches, keeps the Python source as it is', () => {
    const code = dn('py', 'code', {
      code_language: 'python3',
      code: 'def main():\n    """ends */ here"""\n    return {"a": 1}',
      outputs: { a: { type: 'number' } },
      variables: [],
      error_strategy: 'fail-branch',
    });
    const r = dify(
      [dn('hook', 'trigger-webhook'), code, end('e', ['py', 'a']), end('f', ['py', 'a'])],
      [
        ['hook', 'py'],
        ['py', 'e'],
        ['py', 'f', 'fail-branch'],
      ],
    );
    expect(r.graph.nodes.map((n) => n.type)).toContain('start');
    expect(all(r.report).find((e) => e.type === 'start')?.why).toMatch(/no Start node/);
    expect(all(r.report).find((e) => e.id === 'py')?.why).toMatch(/failure branch/);
    const config = r.graph.nodes.find((n) => n.id === 'py')?.data.config;
    // The Code node runs Python: the source is the node's code, byte for byte.
    expect(config).toMatchObject({
      language: 'python',
      code: 'def main():\n    """ends */ here"""\n    return {"a": 1}',
    });
  });

  it('refuses an app of a mode it does not know, with the path of its mode', () => {
    expect(() => convertDify('app:\n  mode: rag-pipeline\nworkflow:\n  graph:\n    nodes: []\n')).toThrow(
      expect.objectContaining({ code: 'IMPORT_INVALID_DOCUMENT', path: 'content.app.mode' }),
    );
  });
});

const n8nNode = (name: string, type: string, parameters: object = {}) => ({
  name,
  type: `n8n-nodes-base.${type}`,
  parameters,
  position: [0, 0],
});
const main = (...outs: string[][]) => ({
  main: outs.map((targets) => targets.map((node) => ({ node, type: 'main', index: 0 }))),
});

describe('n8n wiring', () => {
  it('adds Start and End to a workflow without trigger or response, and says so', () => {
    const r = convertN8n({
      nodes: [n8nNode('Fields', 'set', { assignments: { assignments: [{ name: 'a', value: 'x', type: 'string' }] } })],
      connections: {},
    });
    expect(edges(r.graph)).toEqual(['fields->end', 'start->fields']);
    expect(r.graph.nodes.find((n) => n.id === 'end')?.data.config).toEqual({
      outputs: [{ name: 'result', value: '{{fields.output.json}}' }],
    });
    expect(all(r.report).find((e) => e.type === 'start')?.why).toMatch(/added an End node "end"/);
    expect(problems(r.graph)).toEqual([]);
  });

  it("routes a Switch's numbered fallback to that output, and reads unset fields of Edit Fields from its input", () => {
    const rule = (v: string) => ({
      conditions: {
        combinator: 'and',
        conditions: [
          { leftValue: '={{ $json.kind }}', rightValue: v, operator: { type: 'string', operation: 'equals' } },
        ],
      },
    });
    const r = convertN8n({
      nodes: [
        n8nNode('Hook', 'webhook', { path: 'x' }),
        n8nNode('Keep', 'set', {
          includeOtherFields: true,
          assignments: { assignments: [{ name: 'kind', value: '={{ $json.body.kind }}', type: 'string' }] },
        }),
        n8nNode('Route', 'switch', { rules: { values: [rule('a'), rule('b')] }, options: { fallbackOutput: 1 } }),
        n8nNode('A', 'respondToWebhook', {
          respondWith: 'text',
          responseBody: '=A {{ $json.kind }} {{ $json.body.id }}',
        }),
        n8nNode('B', 'respondToWebhook', {
          respondWith: 'text',
          responseBody: '=B {{ $json.kind.toUpperCase() }} {{literal',
        }),
      ],
      connections: { Hook: main(['Keep']), Keep: main(['Route']), Route: main(['A'], ['B']) },
    });
    expect(edges(r.graph)).toEqual(
      ['hook->keep', 'keep->route', 'route->a:out0', 'route->b:else', 'route->b:out1']
        .map((e) => e.replace('hook', 'start'))
        .sort(),
    );
    const a = r.graph.nodes.find((n) => n.id === 'a')?.data.config as { outputs: Array<{ value: string }> };
    expect(a.outputs[0].value).toBe('A {{keep.output.json.kind}} {{inputs.body.id}}');
    const b = r.graph.nodes.find((n) => n.id === 'b')?.data.config as { outputs: Array<{ value: string }> };
    expect(b.outputs[0].value).toBe('B  { {literal'); // a `{{` n8n kept as text opens no reference
    expect(r.report.approximated.find((e) => e.title === 'B')?.why).toMatch(
      /\$json\.kind\.toUpperCase\(\) }} in responseBody is code/,
    );
    expect(problems(r.graph)).toEqual([]);
  });

  it('refuses a file of several workflows and one without nodes, with a path', () => {
    expect(() => convertN8n([{}, {}])).toThrow(expect.objectContaining({ code: 'IMPORT_INVALID_DOCUMENT' }));
    expect(() => convertN8n({ connections: {} })).toThrow(expect.objectContaining({ path: 'content.nodes' }));
  });
});

describe('keys from the source', () => {
  it('never rewire an object: a field named __proto__ is kept as a plain key', () => {
    const r = convertN8n({
      nodes: [
        n8nNode('Fields', 'set', {
          assignments: { assignments: [{ name: '__proto__.polluted', value: 'yes', type: 'string' }] },
        }),
      ],
      connections: {},
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const template = String(r.graph.nodes.find((n) => n.id === 'fields')?.data.config.template);
    expect(JSON.parse(template)).toEqual({ __proto___: { polluted: 'yes' } });
  });
});
