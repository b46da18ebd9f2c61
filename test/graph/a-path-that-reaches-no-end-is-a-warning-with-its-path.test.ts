// Guarantees: validation flags every place a path of the workflow ends without an End node — a node no edge leaves,
// a branch of a condition or loop no edge leaves from — as a NO_END_ON_PATH warning with its node's JSON path (and
// the branch); a warning never makes the graph invalid; every gallery template and the seeded example have none.
import { describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { SUPPORT_TRIAGE_EXAMPLE } from '@/engine/examples/support-triage';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { localizedGraph, TEMPLATES, TEMPLATE_LANGS } from '@/engine/templates';

const registry = createDefaultRegistry();
const n = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const e = (source: string, target: string, sourceHandle?: string): Graph['edges'][number] => ({
  id: `${source}-${target}-${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const route = n('route', 'condition', {
  branches: [{ id: 'big', conditions: [{ left: '{{inputs.x}}', op: 'gt', right: '10', valueType: 'number' }] }],
});
const start = n('start', 'start', { inputs: [{ name: 'x', type: 'number', required: false }] });
const end = n('end', 'end', { outputs: [{ name: 'out', value: 'done' }] });

describe('a path that reaches no End node', () => {
  it('ending at a node no edge leaves: a warning at that node, the graph still valid', () => {
    const v = validateGraph(
      {
        nodes: [
          start,
          route,
          n('answer', 'template', { template: 'big' }),
          n('notify', 'template', { template: 'x' }),
          end,
        ],
        edges: [e('start', 'route'), e('route', 'answer', 'big'), e('route', 'notify', 'else'), e('answer', 'end')],
      },
      registry,
    );
    expect(v.ok).toBe(true);
    expect(v.errors).toEqual([]);
    expect(v.warnings).toEqual([
      expect.objectContaining({ code: 'NO_END_ON_PATH', path: 'nodes[3]', nodeIds: ['notify'] }),
    ]);
    expect(v.warnings[0].message).toMatch(/"notify" leads to no End node/);
  });

  it('a branch no edge leaves from: a warning at its node naming the branch', () => {
    const v = validateGraph(
      {
        nodes: [start, route, n('answer', 'template', { template: 'big' }), end],
        edges: [e('start', 'route'), e('route', 'answer', 'big'), e('answer', 'end')],
      },
      registry,
    );
    expect(v.ok).toBe(true);
    expect(v.warnings).toEqual([
      expect.objectContaining({ code: 'NO_END_ON_PATH', path: 'nodes[1]', details: { branch: 'else' } }),
    ]);
  });

  it('none when every path ends at an End node', () => {
    const v = validateGraph(
      {
        nodes: [start, route, n('answer', 'template', { template: 'big' }), end],
        edges: [e('start', 'route'), e('route', 'answer', 'big'), e('route', 'end', 'else'), e('answer', 'end')],
      },
      registry,
    );
    expect(v).toMatchObject({ ok: true, errors: [], warnings: [] });
  });

  it('none in any gallery template, in either language, nor in the seeded example', () => {
    for (const t of TEMPLATES)
      for (const lang of TEMPLATE_LANGS)
        expect(validateGraph(localizedGraph(t, lang), registry, t.engine).warnings, `${t.id} (${lang})`).toEqual([]);
    expect(validateGraph(SUPPORT_TRIAGE_EXAMPLE.graph, registry).warnings).toEqual([]);
  });
});
