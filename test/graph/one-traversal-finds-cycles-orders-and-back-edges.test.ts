// Guarantees of the one graph-traversal module (engine/graph/topology.ts) that the engines, the validator and the
// editor's layout rely on: back edges are exactly the edges that close a cycle on the walk from the roots; the nodes
// on cycles are grouped by strongly connected component (two nodes share one exactly when each reaches the other);
// a topological order respects every edge among the chosen nodes and names the ones a cycle leaves unordered; and
// every walk is iterative (a 20,000-node chain does not overflow the stack).
import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  buildTopology,
  depthFirst,
  findCycle,
  nodesOnCycles,
  reachableFrom,
  topologicalOrder,
} from '@/engine/graph/topology';

const graph = (ids: string[], pairs: Array<[string, string]>) =>
  buildTopology({
    nodes: ids.map((id) => ({ id })),
    edges: pairs.map(([source, target], i) => ({ id: `e${i}`, source, target })),
  });

// start → a → b → c → a (a cycle), c → end; d ⇄ e (a second cycle, unreachable from start); f alone.
const t = graph(
  ['start', 'a', 'b', 'c', 'end', 'd', 'e', 'f'],
  [
    ['start', 'a'],
    ['a', 'b'],
    ['b', 'c'],
    ['c', 'a'],
    ['c', 'end'],
    ['d', 'e'],
    ['e', 'd'],
  ],
);

describe('the one graph-traversal module', () => {
  it('a walk from the start finds the back edge that closes the cycle, and nothing it cannot reach', () => {
    const walk = depthFirst(t, ['start']);
    expect(walk.order).toEqual(['start', 'a', 'b', 'c', 'end']);
    expect([...walk.back].map((e) => `${e.source}→${e.target}`)).toEqual(['c→a']);
    // Reverse post-order respects every forward edge.
    const at = new Map(walk.topo.map((id, i) => [id, i]));
    for (const [from, to] of [
      ['start', 'a'],
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'end'],
    ])
      expect(at.get(from)!).toBeLessThan(at.get(to)!);
  });

  it('nodes on cycles are grouped by strongly connected component; the rest are on none', () => {
    const on = nodesOnCycles(t);
    expect([...on.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(on.get('a')).toBe(on.get('b'));
    expect(on.get('b')).toBe(on.get('c'));
    expect(on.get('d')).toBe(on.get('e'));
    expect(on.get('a')).not.toBe(on.get('d'));
    // A node with an edge to itself is on a cycle of its own.
    expect(
      nodesOnCycles(
        graph(
          ['x', 'y'],
          [
            ['x', 'x'],
            ['x', 'y'],
          ],
        ),
      ).has('x'),
    ).toBe(true);
  });

  it('findCycle names the nodes along one cycle, in order', () => {
    const cycle = findCycle(t)!;
    expect(cycle).toHaveLength(3);
    for (let i = 0; i < cycle.length; i++)
      expect(t.outgoing.get(cycle[i])!.some((e) => e.target === cycle[(i + 1) % cycle.length])).toBe(true);
    expect(findCycle(graph(['a', 'b'], [['a', 'b']]))).toBeNull();
  });

  it('a topological order of chosen nodes respects their edges and names what a cycle leaves out', () => {
    const { order, rest } = topologicalOrder(t, new Set(['start', 'a', 'b', 'c', 'end', 'f']));
    expect(order).toEqual(['start', 'f']);
    expect(rest).toEqual(['a', 'b', 'c', 'end']);
    const acyclic = topologicalOrder(t, new Set(['b', 'c', 'end']));
    expect(acyclic).toEqual({ order: ['b', 'c', 'end'], rest: [] });
  });

  it('reachability and ancestry follow the edges', () => {
    expect([...reachableFrom(t, ['b'])].sort()).toEqual(['a', 'b', 'c', 'end']);
    expect([...ancestorsOf(t, 'end')].sort()).toEqual(['a', 'b', 'c', 'start']);
  });

  it('walks a 20,000-node chain without overflowing the stack', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `n${i}`);
    const long = graph(
      ids,
      ids.slice(1).map((id, i) => [ids[i], id] as [string, string]),
    );
    expect(depthFirst(long, ['n0']).order).toHaveLength(20_000);
    expect(nodesOnCycles(long).size).toBe(0);
    expect(findCycle(long)).toBeNull();
    expect(topologicalOrder(long).order).toHaveLength(20_000);
  });
});
