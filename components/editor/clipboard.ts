/**
 * The editor's clipboard: copied nodes (with the edges between them) stay in memory for pasting into any open
 * workflow, and go to the system clipboard as PaiFlow JSON. A paste gives every node and edge a fresh id, rewrites
 * references between the pasted nodes, and offsets them so repeated pastes do not stack.
 */
import type { GraphSnapshot } from './editor-state';
import { newEdgeId, newNodeId, remapRefs, toGraph, type FlowEdge, type FlowNode } from './graph-model';

let clipboard: GraphSnapshot | null = null;

/** Copies the selected nodes and the edges between them; returns how many nodes were copied. */
export function copySelection(all: GraphSnapshot): number {
  const nodes = all.nodes.filter((n) => n.selected);
  if (!nodes.length) return 0;
  const ids = new Set(nodes.map((n) => n.id));
  clipboard = { nodes, edges: all.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
  try {
    void navigator.clipboard
      ?.writeText(JSON.stringify({ format: 'paiflow.clipboard', ...toGraph(clipboard.nodes, clipboard.edges) }))
      .catch(() => {});
  } catch {
    /* the in-app clipboard is enough */
  }
  return nodes.length;
}

/**
 * The clipboard's nodes and edges with fresh ids next to those of `into`, selected and offset for the
 * `pasteNumber`-th paste since the copy. A start node is left out when `into` has one: then the result may be
 * empty. Null when the clipboard is empty.
 */
export function clipboardCopy(into: GraphSnapshot, pasteNumber: number): GraphSnapshot | null {
  if (!clipboard?.nodes.length) return null;
  const taken = new Set(into.nodes.map((n) => n.id));
  const hasStart = into.nodes.some((n) => n.type === 'start');
  const idMap = new Map<string, string>();
  const source = clipboard.nodes.filter((n) => n.type !== 'start' || !hasStart);
  for (const n of source) {
    const id = newNodeId(n.type ?? 'node', taken);
    taken.add(id);
    idMap.set(n.id, id);
  }
  if (!idMap.size) return { nodes: [], edges: [] };
  const offset = 40 * pasteNumber;
  const nodes: FlowNode[] = source.map((n) => ({
    ...n,
    id: idMap.get(n.id)!,
    selected: true,
    dragging: false,
    position: { x: n.position.x + offset, y: n.position.y + offset },
    data: { ...n.data, config: remapRefs(n.data.config, idMap) as Record<string, unknown> },
  }));
  const edgeIds = new Set(into.edges.map((e) => e.id));
  const edges: FlowEdge[] = clipboard.edges
    .filter((e) => idMap.has(e.source) && idMap.has(e.target))
    .map((e) => {
      const id = newEdgeId(edgeIds);
      edgeIds.add(id);
      return { ...e, id, source: idMap.get(e.source)!, target: idMap.get(e.target)!, selected: false };
    });
  return { nodes, edges };
}
