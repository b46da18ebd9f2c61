/**
 * Guarantees of the save-conflict merge: what only one side changed survives the merge, whichever side it was; what
 * both changed differently is a clash listed by id and never merged silently; picks settle clashes per item; both
 * sides adding a node with the same id keeps both nodes; a node one side removed while the other wired it in is a
 * clash, not a lost edge; and the change lists the dialog shows name every node added, removed, changed or moved.
 */
import { describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode } from '@/components/api/types';
import { describeChanges, mergeWorkflows, sameDoc, type WorkflowDoc } from './graph-merge';

const node = (id: string, label = id, config: Record<string, unknown> = {}, x = 0): GraphNode => ({
  id,
  type: id.startsWith('llm') ? 'llm' : 'template',
  position: { x, y: 0 },
  data: { label, config },
});
const edge = (id: string, source: string, target: string, sourceHandle?: string): GraphEdge =>
  sourceHandle ? { id, source, target, sourceHandle } : { id, source, target };

function doc(nodes: GraphNode[], edges: GraphEdge[], fields: Partial<WorkflowDoc> = {}): WorkflowDoc {
  return { name: 'Flow', description: '', engine: 'auto', graph: { nodes, edges }, ...fields };
}

const base = doc(
  [node('a', 'A', { template: 'a' }), node('b', 'B', { template: 'b' }), node('c', 'C', { template: 'c' })],
  [edge('e1', 'a', 'b'), edge('e2', 'b', 'c')],
);
const clone = (d: WorkflowDoc): WorkflowDoc => structuredClone(d);
const withNode = (d: WorkflowDoc, id: string, patch: (n: GraphNode) => GraphNode): WorkflowDoc => ({
  ...d,
  graph: { ...d.graph, nodes: d.graph.nodes.map((n) => (n.id === id ? patch(structuredClone(n)) : n)) },
});
const relabel = (d: WorkflowDoc, id: string, label: string) =>
  withNode(d, id, (n) => ({ ...n, data: { ...n.data, label } }));
const nodeOf = (d: WorkflowDoc, id: string) => d.graph.nodes.find((n) => n.id === id);

describe('changes on different nodes merge cleanly', () => {
  it('keeps my change to one node and their change to another', () => {
    const mine = relabel(base, 'a', 'Mine A');
    const theirs = relabel(base, 'b', 'Theirs B');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(r.unresolved).toEqual([]);
    expect(nodeOf(r.doc, 'a')!.data.label).toBe('Mine A');
    expect(nodeOf(r.doc, 'b')!.data.label).toBe('Theirs B');
    expect(nodeOf(r.doc, 'c')!.data.label).toBe('C');
    expect(r.doc.graph.edges.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('takes nodes added on either side and removals on either side', () => {
    const mine = clone(base);
    mine.graph.nodes.push(node('d', 'Mine D'));
    mine.graph.edges.push(edge('e3', 'c', 'd'));
    const theirs = clone(base);
    theirs.graph.nodes = theirs.graph.nodes.filter((n) => n.id !== 'a');
    theirs.graph.edges = theirs.graph.edges.filter((e) => e.source !== 'a');
    theirs.graph.nodes.push(node('t', 'Theirs T'));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(r.doc.graph.nodes.map((n) => n.id)).toEqual(['b', 'c', 't', 'd']);
    expect(r.doc.graph.edges.map((e) => e.id)).toEqual(['e2', 'e3']);
    expect(r.droppedEdges).toEqual([]);
  });

  it('merges workflow fields one by one: their new name, my new engine', () => {
    const mine = { ...clone(base), engine: 'dag' as const };
    const theirs = { ...clone(base), name: 'Renamed elsewhere' };
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(r.doc).toMatchObject({ name: 'Renamed elsewhere', engine: 'dag', description: '' });
  });

  it('treats a position as layout: their config change and my move of the same node both survive', () => {
    const mine = withNode(base, 'b', (n) => ({ ...n, position: { x: 500, y: 40 } }));
    const theirs = withNode(base, 'b', (n) => ({ ...n, data: { ...n.data, config: { template: 'new' } } }));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(nodeOf(r.doc, 'b')).toMatchObject({ position: { x: 500, y: 40 }, data: { config: { template: 'new' } } });
  });

  it('lets my position win when both sides moved the same node', () => {
    const mine = withNode(base, 'c', (n) => ({ ...n, position: { x: 1, y: 1 } }));
    const theirs = withNode(base, 'c', (n) => ({ ...n, position: { x: 2, y: 2 } }));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(nodeOf(r.doc, 'c')!.position).toEqual({ x: 1, y: 1 });
  });

  it('makes an identical change on both sides no clash', () => {
    const mine = relabel(base, 'a', 'Same');
    const theirs = relabel(base, 'a', 'Same');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(nodeOf(r.doc, 'a')!.data.label).toBe('Same');
  });

  it('ignores key order when comparing nodes', () => {
    const mine = withNode(base, 'a', (n) => ({ data: n.data, position: n.position, type: n.type, id: n.id }));
    const theirs = relabel(base, 'a', 'Theirs A');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(nodeOf(r.doc, 'a')!.data.label).toBe('Theirs A');
  });
});

describe('changes to the same node are clashes listed by id', () => {
  it('lists a node both sides changed differently and leaves it unresolved without a pick', () => {
    const mine = relabel(base, 'a', 'Mine A');
    const theirs = relabel(relabel(base, 'a', 'Theirs A'), 'c', 'Theirs C');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([
      { key: 'node:a', kind: 'node', id: 'a', label: 'Mine A', mine: 'changed', theirs: 'changed' },
    ]);
    expect(r.unresolved).toEqual(['node:a']);
    // Everything else still merged: their C is in the result.
    expect(nodeOf(r.doc, 'c')!.data.label).toBe('Theirs C');
  });

  it('settles a clash with a pick per node', () => {
    const mine = relabel(relabel(base, 'a', 'Mine A'), 'b', 'Mine B');
    const theirs = relabel(relabel(base, 'a', 'Theirs A'), 'b', 'Theirs B');
    const r = mergeWorkflows(base, mine, theirs, { 'node:a': 'mine', 'node:b': 'theirs' });
    expect(r.clashes.map((c) => c.key)).toEqual(['node:a', 'node:b']);
    expect(r.unresolved).toEqual([]);
    expect(nodeOf(r.doc, 'a')!.data.label).toBe('Mine A');
    expect(nodeOf(r.doc, 'b')!.data.label).toBe('Theirs B');
  });

  it('makes "I changed it, they removed it" a clash; picking theirs removes it and its edges', () => {
    const mine = relabel(base, 'b', 'Mine B');
    const theirs = clone(base);
    theirs.graph.nodes = theirs.graph.nodes.filter((n) => n.id !== 'b');
    theirs.graph.edges = [];
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([
      { key: 'node:b', kind: 'node', id: 'b', label: 'Mine B', mine: 'changed', theirs: 'removed' },
    ]);
    const keepMine = mergeWorkflows(base, mine, theirs, { 'node:b': 'mine' });
    expect(nodeOf(keepMine.doc, 'b')!.data.label).toBe('Mine B');
    const takeTheirs = mergeWorkflows(base, mine, theirs, { 'node:b': 'theirs' });
    expect(nodeOf(takeTheirs.doc, 'b')).toBeUndefined();
    expect(takeTheirs.doc.graph.edges).toEqual([]);
  });

  it('makes removing a node the other side wired new edges to a clash, not a silently dropped edge', () => {
    const mine = clone(base);
    mine.graph.nodes.push(node('d', 'D'));
    mine.graph.edges.push(edge('e9', 'c', 'd'));
    const theirs = clone(base);
    theirs.graph.nodes = theirs.graph.nodes.filter((n) => n.id !== 'c');
    theirs.graph.edges = theirs.graph.edges.filter((e) => e.target !== 'c');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([
      { key: 'node:c', kind: 'node', id: 'c', label: 'C', mine: 'connected', theirs: 'removed' },
    ]);
    const kept = mergeWorkflows(base, mine, theirs, { 'node:c': 'mine' });
    expect(kept.doc.graph.edges.map((e) => e.id)).toEqual(['e1', 'e9']);
    expect(kept.droppedEdges).toEqual([]);
    const removed = mergeWorkflows(base, mine, theirs, { 'node:c': 'theirs' });
    expect(removed.doc.graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'd']);
    expect(removed.droppedEdges).toEqual(['e9']);
  });

  it('lets a removal go through when the other side only moved the node', () => {
    const mine = withNode(base, 'c', (n) => ({ ...n, position: { x: 900, y: 0 } }));
    const theirs = clone(base);
    theirs.graph.nodes = theirs.graph.nodes.filter((n) => n.id !== 'c');
    theirs.graph.edges = theirs.graph.edges.filter((e) => e.target !== 'c');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(nodeOf(r.doc, 'c')).toBeUndefined();
  });

  it('lists clashing workflow fields and edges', () => {
    const mine = clone(base);
    mine.name = 'Mine';
    mine.graph.edges[1] = edge('e2', 'b', 'c', 'if');
    const theirs = clone(base);
    theirs.name = 'Theirs';
    theirs.graph.edges[1] = edge('e2', 'b', 'c', 'else');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([
      { key: 'field:name', kind: 'field', id: 'name', label: 'name', mine: 'changed', theirs: 'changed' },
      { key: 'edge:e2', kind: 'edge', id: 'e2', label: 'B → C', mine: 'changed', theirs: 'changed' },
    ]);
    const picked = mergeWorkflows(base, mine, theirs, { 'field:name': 'mine', 'edge:e2': 'theirs' });
    expect(picked.doc.name).toBe('Mine');
    expect(picked.doc.graph.edges[1].sourceHandle).toBe('else');
  });

  it('makes "I changed the edge, they removed it" a clash', () => {
    const mine = clone(base);
    mine.graph.edges[0] = edge('e1', 'a', 'b', 'x');
    const theirs = clone(base);
    theirs.graph.edges = theirs.graph.edges.filter((e) => e.id !== 'e1');
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes.map((c) => [c.key, c.mine, c.theirs])).toEqual([['edge:e1', 'changed', 'removed']]);
  });
});

describe('both sides adding under the same id', () => {
  it('keeps both nodes: mine gets a free id, with its edges and references following', () => {
    const mine = clone(base);
    mine.graph.nodes.push(node('llm_1', 'My LLM'));
    mine.graph.nodes.push(node('d', 'D', { template: '{{llm_1.output.text}}' }));
    mine.graph.edges.push(edge('m1', 'c', 'llm_1'), edge('m2', 'llm_1', 'd'));
    const theirs = clone(base);
    theirs.graph.nodes.push(node('llm_1', 'Their LLM'));
    theirs.graph.edges.push(edge('t1', 'a', 'llm_1'));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(r.renamed).toEqual([{ from: 'llm_1', to: 'llm_2', label: 'My LLM' }]);
    expect(nodeOf(r.doc, 'llm_1')!.data.label).toBe('Their LLM');
    expect(nodeOf(r.doc, 'llm_2')!.data.label).toBe('My LLM');
    expect(nodeOf(r.doc, 'd')!.data.config).toEqual({ template: '{{llm_2.output.text}}' });
    const conns = r.doc.graph.edges.map((e) => `${e.source}>${e.target}`);
    expect(conns).toEqual(['a>b', 'b>c', 'a>llm_1', 'c>llm_2', 'llm_2>d']);
  });

  it('keeps one node when both added the same node', () => {
    const mine = clone(base);
    mine.graph.nodes.push(node('llm_1', 'Same', {}, 10));
    const theirs = clone(base);
    theirs.graph.nodes.push(node('llm_1', 'Same', {}, 20));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.renamed).toEqual([]);
    expect(r.doc.graph.nodes.filter((n) => n.id === 'llm_1')).toHaveLength(1);
    expect(nodeOf(r.doc, 'llm_1')!.position.x).toBe(10);
  });

  it('keeps one edge when both drew the same connection under different ids', () => {
    const mine = clone(base);
    mine.graph.edges.push(edge('e_mine', 'a', 'c'));
    const theirs = clone(base);
    theirs.graph.edges.push(edge('e_theirs', 'a', 'c'));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.doc.graph.edges.map((e) => e.id)).toEqual(['e1', 'e2', 'e_theirs']);
  });

  it('renames my edge when theirs added a different edge under the same id', () => {
    const mine = clone(base);
    mine.graph.edges.push(edge('e_x', 'a', 'c'));
    const theirs = clone(base);
    theirs.graph.edges.push(edge('e_x', 'b', 'a'));
    const r = mergeWorkflows(base, mine, theirs);
    expect(r.clashes).toEqual([]);
    expect(r.doc.graph.edges.map((e) => `${e.id}:${e.source}>${e.target}`)).toEqual([
      'e1:a>b',
      'e2:b>c',
      'e_x:b>a',
      'e_x-2:a>c',
    ]);
  });
});

describe('what the dialog lists', () => {
  it('names every node added, removed, changed or only moved, every edge and field change', () => {
    const side = clone(base);
    side.name = 'New name';
    side.graph.nodes = side.graph.nodes.filter((n) => n.id !== 'c');
    side.graph.edges = side.graph.edges.filter((e) => e.id !== 'e2');
    side.graph.nodes[0].data.label = 'Renamed A';
    side.graph.nodes[1].position = { x: 77, y: 0 };
    side.graph.nodes.push(node('llm_1', 'Summarize'));
    side.graph.edges.push(edge('e5', 'b', 'llm_1'));
    const c = describeChanges(base, side);
    expect(c).toEqual({
      added: [{ id: 'llm_1', label: 'Summarize' }],
      removed: [{ id: 'c', label: 'C' }],
      changed: [{ id: 'a', label: 'Renamed A' }],
      moved: [{ id: 'b', label: 'B' }],
      edgesAdded: [{ id: 'e5', from: 'B', to: 'Summarize' }],
      edgesRemoved: [{ id: 'e2', from: 'B', to: 'C' }],
      edgesChanged: [],
      fields: [{ field: 'name', from: 'Flow', to: 'New name' }],
      count: 7,
    });
    expect(describeChanges(base, clone(base)).count).toBe(0);
  });

  it('reports both sides on the merge result', () => {
    const r = mergeWorkflows(base, relabel(base, 'a', 'Mine A'), relabel(base, 'b', 'Theirs B'));
    expect(r.mine.changed).toEqual([{ id: 'a', label: 'Mine A' }]);
    expect(r.theirs.changed).toEqual([{ id: 'b', label: 'Theirs B' }]);
  });

  it('sameDoc compares stored content, positions included, key order not', () => {
    expect(sameDoc(base, clone(base))).toBe(true);
    expect(
      sameDoc(
        base,
        withNode(base, 'a', (n) => ({ ...n, position: { x: 1, y: 0 } })),
      ),
    ).toBe(false);
    expect(sameDoc(base, { ...clone(base), description: 'x' })).toBe(false);
    const reordered = withNode(base, 'a', (n) => ({ data: n.data, id: n.id, position: n.position, type: n.type }));
    expect(sameDoc(base, reordered)).toBe(true);
  });
});
