/**
 * What the `{{` autocomplete offers in a node's fields: `inputs.<name>` from the start node, `conversation.<name>` for
 * each of the workflow's conversation variables, and for every node
 * upstream of the one being edited `<id>.output` plus each field its node type declares (NodeDefinition.outputFields,
 * served by GET /api/node-types) — so the list follows the engine's own definitions and a new node type's outputs
 * appear without a change here.
 */
import type { NodeTypeInfo } from '@/components/api/types';
import { upstreamOf, type FlowEdge, type FlowNode } from '../graph-model';

export function templateSuggestions(
  nodeId: string,
  nodes: FlowNode[],
  edges: FlowEdge[],
  types: ReadonlyMap<string, NodeTypeInfo>,
  conversationVariables: ReadonlyArray<{ name: string }> = [],
): string[] {
  const out: string[] = [];
  const start = nodes.find((n) => n.type === 'start');
  const inputs = Array.isArray(start?.data.config.inputs)
    ? (start!.data.config.inputs as Array<{ name?: string }>)
    : [];
  for (const i of inputs) if (i?.name) out.push(`inputs.${i.name}`);
  for (const v of conversationVariables) out.push(`conversation.${v.name}`);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const id of upstreamOf(nodeId, edges)) {
    const n = byId.get(id);
    if (!n || n.type === 'start') continue;
    out.push(`${id}.output`);
    for (const f of types.get(n.type ?? '')?.outputFields ?? []) out.push(`${id}.output.${f.path}`);
  }
  return out;
}
