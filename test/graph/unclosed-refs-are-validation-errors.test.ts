// Guarantees: a `{{` that never becomes a reference (`Hello {{inputs.name`, `{{a {{b}}`) is a validation error
// UNCLOSED_REF at the JSON path of the string that holds it — in nested config too — while complete refs, brace runs
// that end in a ref (`{{{a}}}`) and the Code node's JavaScript (a literal key, where `{{` is just code) are not; the
// scan stays linear on hostile input.
import { describe, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { findUnclosedRefs } from '@/engine/template/resolve';

const registry = createDefaultRegistry();

function graph(middle: Array<{ id: string; type: string; config: Record<string, unknown> }>) {
  const ids = ['start', ...middle.map((m) => m.id), 'end'];
  return {
    nodes: [
      { id: 'start', type: 'start', data: { config: { inputs: [{ name: 'name', type: 'string' }] } } },
      ...middle.map((m) => ({ id: m.id, type: m.type, data: { config: m.config } })),
      { id: 'end', type: 'end', data: { config: { outputs: [] } } },
    ],
    edges: ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id })),
  };
}

const unclosed = (g: unknown) => validateGraph(g, registry).errors.filter((e) => e.code === 'UNCLOSED_REF');

describe('unclosed references', () => {
  it('are an error with the path of their string', () => {
    const errors = unclosed(
      graph([{ id: 't1', type: 'template', config: { template: 'Hello {{inputs.name', format: 'text' } }]),
    );
    expect(errors).toEqual([
      {
        code: 'UNCLOSED_REF',
        message: '"{{inputs.name" opens a reference that is never closed: add "}}" after it, or remove the "{{"',
        path: 'nodes[1].data.config.template',
        nodeIds: ['t1'],
      },
    ]);
    // The graph as a whole is not valid: a run or a non-draft save is refused.
    expect(validateGraph(graph([{ id: 't1', type: 'template', config: { template: 'x {{a' } }]), registry).ok).toBe(
      false,
    );
  });

  it('are found in nested config, one per unclosed opening', () => {
    const http = {
      url: 'https://example.com/{{inputs.name}}',
      headers: [
        { key: 'X-A', value: 'fine {{inputs.name}}' },
        { key: 'X-B', value: 'broken {{inputs.name }} and {{inputs.name' },
      ],
      bodyType: 'text',
      body: '{{inputs.name {{inputs.name}}',
    };
    const errors = unclosed(graph([{ id: 'h', type: 'http', config: http }]));
    expect(errors.map((e) => e.path)).toEqual(['nodes[1].data.config.headers[1].value', 'nodes[1].data.config.body']);
    expect(errors[1].message).toContain('"{{inputs.name {{inputs.name}}"');
  });

  it('leave complete refs, brace runs that end in a ref and the Code node’s JavaScript alone', () => {
    const ok = graph([
      { id: 't1', type: 'template', config: { template: '{{{inputs.name}}} and {{ inputs.name }}', format: 'text' } },
      {
        id: 'c1',
        type: 'code',
        config: {
          code: 'function main(input) { const o = {{}}; return { a: "{{not a ref" }; }',
          inputs: { who: '{{inputs.name}}' },
        },
      },
    ]);
    expect(unclosed(ok)).toEqual([]);
    // The Code node's inputs are templates like any other config: an unclosed one there is an error.
    const bad = graph([
      { id: 'c1', type: 'code', config: { code: 'function main(){return 1}', inputs: { who: '{{x' } } },
    ]);
    expect(unclosed(bad).map((e) => e.path)).toEqual(['nodes[1].data.config.inputs.who']);
  });

  it('are found in linear time, once per run of braces', () => {
    expect(findUnclosedRefs('a {{b')).toEqual([2]);
    expect(findUnclosedRefs('{{a {{b}}')).toEqual([0]);
    expect(findUnclosedRefs('{{{{')).toEqual([0]);
    expect(findUnclosedRefs('{{{a}}')).toEqual([]);
    expect(findUnclosedRefs('{{a}} }} {')).toEqual([]);
    // 100,000 openings and a long tail of spaces: one pass, not a backtracking regex.
    const hostile = '{{a '.repeat(100_000) + ' '.repeat(200_000);
    expect(findUnclosedRefs(hostile)).toHaveLength(100_000);
  });
});
