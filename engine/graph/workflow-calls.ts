/**
 * The calls of other workflows a graph makes — workflow nodes, and agents' `workflowTools` — read from the stored
 * configs, and the child versions publishing pinned on them. Validation, publishing, the runtime and the child-run
 * runner all read calls through this one module.
 */
import type { Graph, GraphNode } from './schema';

/**
 * Which version of a child workflow a call runs: `published` (its current published version), `draft` (the editor's
 * draft; only for a draft parent run), or a version number. A parent that is itself a published run (or an API call)
 * always runs a published version.
 */
export type ChildVersion = 'published' | 'draft' | number;

/** One call of another workflow in a graph: a workflow node, or an entry of an agent's `workflowTools`. */
export interface WorkflowCall {
  nodeId: string;
  nodeType: string;
  workflowId: string;
  /** JSON path of the `workflowId`, e.g. `nodes[2].data.config.workflowTools[0].workflowId`. */
  path: string;
  /** What the graph asks for (workflow nodes; agent tools have no choice). */
  version?: ChildVersion;
  /** Set on a published version's graph: the child version it was published with. */
  pinnedVersion?: number;
  /** The object holding `workflowId` (the node's config or the tool entry), where `pinnedVersion` is written. */
  holder: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every call of another workflow in `graph`, read from the stored (unparsed) configs: workflow nodes, and any
 * `workflowTools` list inside a node's config (the Agent node, and agents nested in other nodes' configs).
 */
export function workflowCallsOf(graph: Pick<Graph, 'nodes'>): WorkflowCall[] {
  const out: WorkflowCall[] = [];
  graph.nodes.forEach((node, i) => {
    const config = node.data?.config;
    if (!isObject(config)) return;
    const base = `nodes[${i}].data.config`;
    const call = (holder: Record<string, unknown>, path: string) => {
      if (typeof holder.workflowId !== 'string' || !holder.workflowId) return;
      const v = holder.version;
      const pin = holder.pinnedVersion;
      out.push({
        nodeId: node.id,
        nodeType: node.type,
        workflowId: holder.workflowId,
        path: `${path}.workflowId`,
        version: v === 'published' || v === 'draft' || (typeof v === 'number' && Number.isInteger(v)) ? v : undefined,
        pinnedVersion: typeof pin === 'number' && Number.isInteger(pin) ? pin : undefined,
        holder,
      });
    };
    // A node whose own config names a workflow calls it (the workflow node); any other node may hold agents'
    // `workflowTools` lists anywhere in its config.
    if (typeof config.workflowId === 'string') return call(config, base);
    const walk = (v: unknown, path: string, depth: number) => {
      if (depth > 6) return;
      if (Array.isArray(v)) return v.forEach((x, j) => walk(x, `${path}[${j}]`, depth + 1));
      if (!isObject(v)) return;
      for (const [k, x] of Object.entries(v)) {
        if (k === 'workflowTools' && Array.isArray(x))
          x.forEach((t, j) => isObject(t) && call(t, `${path}.workflowTools[${j}]`));
        else walk(x, `${path}.${k}`, depth + 1);
      }
    };
    walk(config, base, 0);
  });
  return out;
}

/**
 * A node's config without the `pinnedVersion`s publishing wrote into a version's graph: an annotation the runner reads
 * from the graph itself (pinnedVersionIn), not config, so the strict config schemas neither know nor refuse it.
 */
export function configWithoutPins(node: GraphNode): unknown {
  const config = node.data?.config;
  if (!workflowCallsOf({ nodes: [node] }).some((c) => 'pinnedVersion' in c.holder)) return config;
  const copy = structuredClone(node);
  for (const call of workflowCallsOf({ nodes: [copy] })) delete call.holder.pinnedVersion;
  return copy.data.config;
}

/** A version's graph without the pins publishing added (to compare it with its draft). */
export function withoutPins(graph: Graph): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, data: { ...n.data, config: configWithoutPins(n) } })),
  } as Graph;
}

/** The child version a published graph pinned for `childId`, preferably on the calling node. */
export function pinnedVersionIn(graph: Graph, childId: string, nodeId?: string): number | undefined {
  const pins = workflowCallsOf(graph).filter((c) => c.workflowId === childId && c.pinnedVersion !== undefined);
  return (pins.find((c) => c.nodeId === nodeId) ?? pins[0])?.pinnedVersion;
}
