/**
 * Edges leaving a node with dynamic outputs (a condition's branches, plus `else`) are attached by handle id. When
 * the node's branches are edited, its edges must follow, or they would dangle or jump to another branch.
 */
import type { FlowEdge, FlowNode, NodeData } from './graph-model';

/** When a branch is renamed its edges follow (matched by position); when one is removed, its edges go with it. */
export function followHandles(node: FlowNode, data: NodeData, edges: FlowEdge[]): FlowEdge[] {
  const ids = (config: Record<string, unknown>) => [
    ...(Array.isArray(config.branches) ? config.branches.map((b: { id?: unknown } | null) => String(b?.id ?? '')) : []),
    'else',
  ];
  const before = ids(node.data.config);
  const after = ids(data.config);
  if (before.join('\n') === after.join('\n')) return edges;
  if (before.length === after.length) {
    const renamed = new Map<string, string>();
    before.forEach((id, i) => {
      if (id !== after[i]) renamed.set(id, after[i]);
    });
    return edges.map((e) =>
      e.source === node.id && e.sourceHandle != null && renamed.has(e.sourceHandle)
        ? { ...e, sourceHandle: renamed.get(e.sourceHandle)! }
        : e,
    );
  }
  const valid = new Set(after);
  return edges.filter((e) => e.source !== node.id || e.sourceHandle == null || valid.has(e.sourceHandle));
}
