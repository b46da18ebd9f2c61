/**
 * What changed between two graphs, node by node, for the versions list ("the draft vs version 3"). Positions are
 * layout, not behaviour, so moving a node is not a change; edges compare by what they connect, not by their ids.
 * Nodes compare by what they run with: a default spelled out (a version published before the default existed, or
 * an editor that writes `retry.backoffMultiplier: 2`) is the same node as one that leaves it out.
 */
import { canonicalJson } from '@/engine/graph/canonical-json';
import { retryPolicySchema, type EngineChoice, type Graph, type GraphNode } from '@/engine/graph/schema';
import { createDefaultRegistry } from '@/engine/nodes/registry';

export interface GraphDiff {
  /** Node ids in `to` but not in `from`. */
  added: string[];
  removed: string[];
  /** Same id, different type, config, label, version, retry or timeout. */
  changed: string[];
  edgesAdded: number;
  edgesRemoved: number;
  engineChanged: boolean;
  /** The declared conversation variables differ (names, types, defaults or descriptions). */
  conversationVariablesChanged: boolean;
  /** Nothing that affects a run differs. */
  same: boolean;
}

const registry = createDefaultRegistry();

/** The node's config with its type's defaults applied; as stored when the type is unknown or the config invalid. */
function effectiveConfig(n: GraphNode): unknown {
  const config = n.data?.config ?? {};
  if (!registry.has(n.type)) return config;
  try {
    const parsed = registry.get(n.type, n.data?.version).configSchema.safeParse(config);
    return parsed.success ? parsed.data : config;
  } catch {
    return config; // a version this server does not have: compare as stored
  }
}

const behaviour = (n: GraphNode) =>
  canonicalJson({
    type: n.type,
    data: { ...n.data, config: effectiveConfig(n), retry: retryPolicySchema.parse(n.data?.retry ?? {}) },
  });
const edgeKey = (e: Graph['edges'][number]) =>
  canonicalJson([e.source, e.sourceHandle ?? null, e.target, e.targetHandle ?? null]);

export function diffGraphs(
  from: { graph: Graph; engine: EngineChoice },
  to: { graph: Graph; engine: EngineChoice },
): GraphDiff {
  const a = new Map(from.graph.nodes.map((n) => [n.id, n]));
  const b = new Map(to.graph.nodes.map((n) => [n.id, n]));
  const added = [...b.keys()].filter((id) => !a.has(id));
  const removed = [...a.keys()].filter((id) => !b.has(id));
  const changed = [...b.keys()].filter((id) => a.has(id) && behaviour(a.get(id)!) !== behaviour(b.get(id)!));
  const ea = new Set(from.graph.edges.map(edgeKey));
  const eb = new Set(to.graph.edges.map(edgeKey));
  const edgesAdded = [...eb].filter((k) => !ea.has(k)).length;
  const edgesRemoved = [...ea].filter((k) => !eb.has(k)).length;
  const engineChanged = from.engine !== to.engine;
  const conversationVariablesChanged =
    canonicalJson(from.graph.conversationVariables ?? []) !== canonicalJson(to.graph.conversationVariables ?? []);
  return {
    added,
    removed,
    changed,
    edgesAdded,
    edgesRemoved,
    engineChanged,
    conversationVariablesChanged,
    same:
      !added.length &&
      !removed.length &&
      !changed.length &&
      !edgesAdded &&
      !edgesRemoved &&
      !engineChanged &&
      !conversationVariablesChanged,
  };
}
