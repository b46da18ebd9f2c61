/**
 * Layered auto-layout without a layout library: each node's layer is its longest-path distance from the roots
 * (the start node first), back edges of cycles are ignored, and nodes inside a layer are ordered by the mean
 * position of their predecessors (one barycenter sweep), which removes most crossings in workflow-shaped graphs.
 */
import type { FlowEdge, FlowNode } from './graph-model';

const LAYER_GAP = 90;
const ROW_GAP = 40;
const DEFAULT_W = 240;
const DEFAULT_H = 96;

export function layeredLayout(nodes: FlowNode[], edges: FlowEdge[]): Map<string, { x: number; y: number }> {
  const ids = nodes.map((n) => n.id);
  const known = new Set(ids);
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  const inc = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) {
    if (!known.has(e.source) || !known.has(e.target) || e.source === e.target) continue;
    out.get(e.source)!.push(e.target);
    inc.get(e.target)!.push(e.source);
  }

  // Order roots so the start node comes first, then DFS to drop back edges (iterative: 5,000-node chains are fine).
  const roots = [
    ...nodes.filter((n) => n.type === 'start'),
    ...nodes.filter((n) => n.type !== 'start' && inc.get(n.id)!.length === 0),
    ...nodes,
  ];
  const state = new Map<string, 1 | 2>();
  const dagOut = new Map<string, string[]>(ids.map((id) => [id, []]));
  const topo: string[] = [];
  for (const r of roots) {
    if (state.has(r.id)) continue;
    const stack: Array<{ id: string; i: number }> = [{ id: r.id, i: 0 }];
    state.set(r.id, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = out.get(top.id)!;
      if (top.i < next.length) {
        const t = next[top.i++];
        const s = state.get(t);
        if (s === 1) continue; // back edge
        dagOut.get(top.id)!.push(t);
        if (!s) {
          state.set(t, 1);
          stack.push({ id: t, i: 0 });
        }
      } else {
        state.set(top.id, 2);
        topo.push(top.id);
        stack.pop();
      }
    }
  }
  topo.reverse();

  const layer = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const id of topo) for (const t of dagOut.get(id)!) layer.set(t, Math.max(layer.get(t)!, layer.get(id)! + 1));
  // End nodes sit in the last layer of their component, so results line up on the right.
  const maxLayer = Math.max(0, ...layer.values());
  for (const n of nodes) if (n.type === 'end' && inc.get(n.id)!.length > 0) layer.set(n.id, maxLayer);

  const byLayer: string[][] = Array.from({ length: maxLayer + 1 }, () => []);
  for (const id of topo) byLayer[layer.get(id)!].push(id);

  const size = new Map(
    nodes.map((n) => [n.id, { w: n.measured?.width ?? DEFAULT_W, h: n.measured?.height ?? DEFAULT_H }]),
  );
  const order = new Map<string, number>();
  const positions = new Map<string, { x: number; y: number }>();
  let x = 0;
  for (const ids of byLayer) {
    if (layer.size && ids.length) {
      const bary = (id: string) => {
        const ps = inc.get(id)!.filter((p) => order.has(p));
        return ps.length ? ps.reduce((s, p) => s + order.get(p)!, 0) / ps.length : Number.MAX_SAFE_INTEGER;
      };
      ids.sort((a, b) => bary(a) - bary(b));
    }
    const heights = ids.map((id) => size.get(id)!.h);
    const total = heights.reduce((s, h) => s + h, 0) + ROW_GAP * Math.max(0, ids.length - 1);
    let y = -total / 2;
    const width = Math.max(DEFAULT_W, ...ids.map((id) => size.get(id)!.w));
    ids.forEach((id, i) => {
      order.set(id, y + heights[i] / 2);
      positions.set(id, { x, y: Math.round(y) });
      y += heights[i] + ROW_GAP;
    });
    x += width + LAYER_GAP;
  }
  return positions;
}
