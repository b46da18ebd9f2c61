/**
 * What changed between two graphs, node by node, for the versions list ("the draft vs version 3"). Positions are
 * layout, not behaviour, so moving a node is not a change; edges compare by what they connect, not by their ids.
 */
import type { EngineChoice, Graph, GraphNode } from '@/engine/graph/schema';

export interface GraphDiff {
  /** Node ids in `to` but not in `from`. */
  added: string[];
  removed: string[];
  /** Same id, different type, config, label, version, retry or timeout. */
  changed: string[];
  edgesAdded: number;
  edgesRemoved: number;
  engineChanged: boolean;
  /** Nothing that affects a run differs. */
  same: boolean;
}

/** JSON with sorted keys, so that key order never counts as a difference. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const behaviour = (n: GraphNode) => canonicalJson({ type: n.type, data: n.data });
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
  return {
    added,
    removed,
    changed,
    edgesAdded,
    edgesRemoved,
    engineChanged,
    same: !added.length && !removed.length && !changed.length && !edgesAdded && !edgesRemoved && !engineChanged,
  };
}
