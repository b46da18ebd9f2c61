// leadsOnlyTo(): which nodes reach only nodes satisfying a predicate — the engines use it to let a node followed only
// by pure nodes skip a commit of its own, so it must never include a node on (or leading to) a cycle or one that can
// reach a node failing the predicate, whatever order the nodes are listed in.
import { describe, expect, it } from 'vitest';
import { buildTopology, leadsOnlyTo } from '@/engine/graph/topology';

function graph(edges: Array<[string, string]>, order?: string[]) {
  const ids = order ?? [...new Set(edges.flat())];
  return buildTopology({
    nodes: ids.map((id) => ({ id, type: 'x', position: { x: 0, y: 0 }, data: { config: {} } })),
    edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
  });
}
const pureSet = (ids: string[]) => (id: string) => ids.includes(id);
const sorted = (s: Set<string>) => [...s].sort();

describe('leadsOnlyTo', () => {
  it('a chain: only the nodes after the last impure one qualify (and every sink)', () => {
    const t = graph([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ]);
    expect(sorted(leadsOnlyTo(t, pureSet(['a', 'c', 'd'])))).toEqual(['b', 'c', 'd']);
    expect(sorted(leadsOnlyTo(t, pureSet([])))).toEqual(['d']);
  });

  it('a diamond with one impure branch: nodes before it do not qualify, in any listing order', () => {
    const edges: Array<[string, string]> = [
      ['s', 'l'],
      ['s', 'r'],
      ['l', 'j'],
      ['r', 'j'],
      ['j', 'e'],
    ];
    for (const order of [
      ['s', 'l', 'r', 'j', 'e'],
      ['e', 'j', 'r', 'l', 's'],
      ['r', 's', 'e', 'l', 'j'],
    ]) {
      expect(sorted(leadsOnlyTo(graph(edges, order), pureSet(['l', 'j', 'e'])))).toEqual(['e', 'j', 'l', 'r']);
    }
  });

  it('a cycle never qualifies, even of pure nodes, nor does what leads to it; what follows it may', () => {
    const t = graph([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'b'],
      ['c', 'd'],
    ]);
    expect(sorted(leadsOnlyTo(t, pureSet(['a', 'b', 'c', 'd'])))).toEqual(['d']);
    const self = graph([
      ['a', 'b'],
      ['b', 'b'],
      ['b', 'c'],
    ]);
    expect(sorted(leadsOnlyTo(self, () => true))).toEqual(['c']);
  });

  it('a node explored through a path that failed keeps its own verdict when it qualifies', () => {
    // x → y → z(impure); x → w: w is explored first from x, qualifies, and must stay qualified after x fails.
    for (const order of [
      ['x', 'w', 'y', 'z'],
      ['z', 'y', 'w', 'x'],
    ]) {
      expect(
        sorted(
          leadsOnlyTo(
            graph(
              [
                ['x', 'w'],
                ['x', 'y'],
                ['y', 'z'],
              ],
              order,
            ),
            pureSet(['w', 'y']),
          ),
        ),
      ).toEqual(['w', 'z']);
    }
  });
});
