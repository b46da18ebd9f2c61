/**
 * Guarantees of the versions list's "what changed": a node counts as changed only when what it runs with differs —
 * defaults spelled out after publishing (retry's backoffMultiplier, a config field's default) are not a change,
 * while a different value is; moving a node is not a change.
 */
import { describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { diffGraphs } from './graph-diff';

const graph = (data: Record<string, unknown>, position = { x: 0, y: 0 }): Graph => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: {} } },
    { id: 'tpl', type: 'template', position, data: { config: { template: 'Hi {{inputs.name}}' }, ...data } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'tpl' }],
});
const diff = (a: Graph, b: Graph) => diffGraphs({ graph: a, engine: 'auto' }, { graph: b, engine: 'auto' });

describe('what changed between a version and the draft', () => {
  it('a retry default written out after publishing is not a change', () => {
    const published = graph({ retry: { maxAttempts: 3 } });
    const draft = graph({ retry: { maxAttempts: 3, backoffMs: 500, backoffMultiplier: 2 } });
    expect(diff(published, draft)).toMatchObject({ changed: [], same: true });
  });

  it('a different retry value is a change', () => {
    const published = graph({ retry: { maxAttempts: 3 } });
    const draft = graph({ retry: { maxAttempts: 3, backoffMultiplier: 3 } });
    expect(diff(published, draft)).toMatchObject({ changed: ['tpl'], same: false });
  });

  it('a config default spelled out is not a change, a config value is', () => {
    const start = (config: Record<string, unknown>): Graph => ({
      nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config } }],
      edges: [],
    });
    expect(diff(start({}), start({ inputs: [] })).same).toBe(true);
    expect(diff(start({}), start({ inputs: [{ name: 'q', type: 'string' }] })).changed).toEqual(['start']);
  });

  it('moving a node is not a change', () => {
    expect(diff(graph({}), graph({}, { x: 300, y: 120 })).same).toBe(true);
  });
});
