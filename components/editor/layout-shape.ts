/**
 * The shape of a graph before it is laid out: the depth-first order from the start node (ELK's model order, which
 * decides which edge of a cycle is the back edge) and how wide one unwrapped row of ranks would be (whether to wrap).
 * The walk is engine/graph/topology.ts's, as the engines use it.
 */
import type { NodeTypeInfo } from '@/components/api/types';
import { buildTopology, depthFirst } from '@/engine/graph/topology';
import { outputsOf, type FlowEdge, type FlowNode } from './graph-model';

interface Walk {
  /** Nodes in the order a depth-first walk from the start node (then from every other root) first reaches them. */
  order: FlowNode[];
  /** Forward edges of that walk (cycle-closing edges dropped), by source. */
  forward: Map<string, string[]>;
  /** Nodes in topological order of the forward edges. */
  topo: string[];
}

/**
 * Depth-first walk from the start node, then from nodes without inputs, then from whatever is left (cycles with no
 * way in). A node's edges are followed in the order of its handles, so a condition's first branch comes first.
 */
function walk(nodes: FlowNode[], edges: FlowEdge[], types?: Map<string, NodeTypeInfo>): Walk {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const t = buildTopology({ nodes, edges: edges.filter((e) => e.source !== e.target) });
  for (const [id, list] of t.outgoing) {
    const n = byId.get(id)!;
    const handles = outputsOf(types?.get(n.type ?? ''), n.data.config).map((o) => o.id);
    const rank = (e: FlowEdge) => {
      const i = e.sourceHandle == null ? -1 : handles.indexOf(e.sourceHandle);
      return i < 0 ? handles.length : i;
    };
    list.sort((a, b) => rank(a) - rank(b)); // stable: edges of one handle keep their stored order
  }
  const roots = [
    ...nodes.filter((n) => n.type === 'start'),
    ...nodes.filter((n) => n.type !== 'start' && t.incoming.get(n.id)!.length === 0),
    ...nodes,
  ].map((n) => n.id);
  const { order, back, topo } = depthFirst(t, roots);
  const forward = new Map(
    [...t.outgoing].map(([id, list]) => [id, list.filter((e) => !back.has(e)).map((e) => e.target)]),
  );
  return { order: order.map((id) => byId.get(id)!), forward, topo };
}

export function depthFirstOrder(nodes: FlowNode[], edges: FlowEdge[], types?: Map<string, NodeTypeInfo>): FlowNode[] {
  return walk(nodes, edges, types).order;
}

/**
 * The size of the layout if every rank sat in one row: ranks by longest path over the forward edges, each as wide
 * as its widest node and as tall as its nodes stacked, plus the gaps between them.
 */
export function estimateRow(
  nodes: FlowNode[],
  edges: FlowEdge[],
  sizeOf: (n: FlowNode) => { width: number; height: number },
  gaps: { layer: number; node: number },
): { width: number; height: number } {
  if (!nodes.length) return { width: 0, height: 0 };
  const { forward, topo } = walk(nodes, edges);
  const rank = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  for (const id of topo) for (const t of forward.get(id)!) rank.set(t, Math.max(rank.get(t)!, rank.get(id)! + 1));
  const ranks = new Map<number, { width: number; height: number }>();
  for (const n of nodes) {
    const r = rank.get(n.id)!;
    const size = sizeOf(n);
    const cur = ranks.get(r);
    if (cur) ranks.set(r, { width: Math.max(cur.width, size.width), height: cur.height + gaps.node + size.height });
    else ranks.set(r, { ...size });
  }
  const all = [...ranks.values()];
  return {
    width: all.reduce((s, r) => s + r.width, 0) + gaps.layer * (all.length - 1),
    height: Math.max(...all.map((r) => r.height)),
  };
}
