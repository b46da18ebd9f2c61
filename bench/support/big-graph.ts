/** The editor benchmark's graph: start → n − 2 templates in a grid, each fed by the one before it (plus a second
 * edge from seven back every 7th node) → end. */
export interface BigGraph {
  nodes: Array<Record<string, unknown>>;
  edges: Array<Record<string, unknown>>;
}

export const GRID_COLUMNS = 25;

export function bigGraph(n: number): BigGraph {
  const nodes: BigGraph['nodes'] = [];
  const edges: BigGraph['edges'] = [];
  const pos = (i: number) => ({ x: (i % GRID_COLUMNS) * 300, y: Math.floor(i / GRID_COLUMNS) * 160 });
  nodes.push({
    id: 'start',
    type: 'start',
    position: pos(0),
    data: { label: 'Start', config: { inputs: [{ name: 'q', type: 'string', required: true }] } },
  });
  for (let i = 1; i < n - 1; i++) {
    const prev = i === 1 ? 'start' : `t${i - 1}`;
    nodes.push({
      id: `t${i}`,
      type: 'template',
      position: pos(i),
      data: {
        label: `Step ${i}`,
        config: { template: i === 1 ? '{{inputs.q}}' : `{{${prev}.output.text}}+`, format: 'text' },
      },
    });
    edges.push({ id: `e${i}`, source: prev, target: `t${i}` });
    if (i > 7 && i % 7 === 0) edges.push({ id: `x${i}`, source: `t${i - 7}`, target: `t${i}` });
  }
  nodes.push({
    id: 'end',
    type: 'end',
    position: pos(n - 1),
    data: { label: 'End', config: { outputs: [{ name: 'out', value: `{{t${n - 2}.output.text}}` }] } },
  });
  edges.push({ id: 'eend', source: `t${n - 2}`, target: 'end' });
  return { nodes, edges };
}
