/**
 * Edges leaving a node with dynamic outputs (a condition's branches plus `else`, a classifier's classes plus `other`)
 * are attached by handle id. When the node's list is edited, its edges must follow, or they would dangle or jump to
 * another branch.
 */
import type { ListedOutputs } from '@/components/api/types';
import type { FlowEdge, FlowNode, NodeData } from './graph-model';

const CONDITION: ListedOutputs = { list: 'branches', label: 'label', fallback: 'else' }; // i18n-exempt: config keys

/** When a branch is renamed its edges follow (matched by position); when one is removed, its edges go with it. */
export function followHandles(
  node: FlowNode,
  data: NodeData,
  edges: FlowEdge[],
  from: ListedOutputs = CONDITION,
): FlowEdge[] {
  const ids = (config: Record<string, unknown>) => {
    const list = config[from.list];
    return [
      ...(Array.isArray(list) ? list.map((b: { id?: unknown } | null) => String(b?.id ?? '')) : []),
      from.fallback,
    ];
  };
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
