/**
 * The state-graph engine's plan of a stored graph, computed once per compiled graph: forward and back edges (DFS
 * from the start node), the nodes on cycles and their iteration limits, which snapshots ride with the next commit,
 * and the straight-line blocks that run as one LangGraph node.
 */
import type { GraphEdge, GraphNode } from '../graph/schema';
import { buildTopology, depthFirst, nodesOnCycles, type Topology } from '../graph/topology';
import type { ExecuteArgs } from './types';
import { persistWithNextIn } from './run-node';

export interface Plan {
  t: Topology;
  nodes: Map<string, GraphNode>;
  forwardIn: Map<string, GraphEdge[]>;
  forwardOut: Map<string, GraphEdge[]>;
  backOut: Map<string, GraphEdge[]>;
  inCycle: Set<string>;
  maxIter: Map<string, number>;
  startId: string;
  /** Nodes whose snapshot rides with the next commit (RunNodeArgs.persistWithNext). */
  persistWithNext: Set<string>;
  /**
   * Straight-line stretches of the graph, each run as ONE LangGraph node: its head's id → the member ids in order
   * (the head first). Every node is in exactly one block; most blocks are a single node.
   */
  blocks: Map<string, string[]>;
  /** A member's block head. */
  blockOf: Map<string, string>;
}

/**
 * Classifies edges into forward and back edges (DFS from the start node) and finds the nodes on cycles.
 * `loopMaxIterations`: the iteration limit of a node on a cycle without its own `data.maxIterations`
 * (LOOP_MAX_ITERATIONS, which the engine's builder is given).
 */
export function planGraph(args: Pick<ExecuteArgs, 'graph' | 'registry'>, loopMaxIterations: number): Plan {
  const { graph, registry } = args;
  const t = buildTopology(graph);
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const startId = graph.nodes.find((n) => registry.capabilitiesOf(n).entry)!.id;
  const { back } = depthFirst(t, [startId]);
  const forwardIn = new Map<string, GraphEdge[]>();
  const forwardOut = new Map<string, GraphEdge[]>();
  const backOut = new Map<string, GraphEdge[]>();
  for (const id of t.ids) {
    forwardIn.set(
      id,
      t.incoming.get(id)!.filter((e) => !back.has(e)),
    );
    forwardOut.set(
      id,
      t.outgoing.get(id)!.filter((e) => !back.has(e)),
    );
    backOut.set(
      id,
      t.outgoing.get(id)!.filter((e) => back.has(e)),
    );
  }
  // Nodes on cycles, by strongly connected component: a loop node raises the limit of every node on its cycles.
  const components = nodesOnCycles(t);
  const inCycle = new Set(components.keys());
  const maxIter = new Map<string, number>();
  for (const id of inCycle) {
    let limit = Number((nodes.get(id)!.data as { maxIterations?: number }).maxIterations ?? loopMaxIterations);
    for (const other of inCycle) {
      const n = nodes.get(other)!;
      const iterates = registry.capabilitiesOf(n).iterates;
      if (iterates && components.get(other) === components.get(id))
        limit = Math.max(limit, iterates.maxPasses(n.data.config) + 1);
    }
    maxIter.set(id, limit);
  }
  const { blocks, blockOf } = straightLineBlocks(t, nodes, inCycle, registry, startId);
  return {
    t,
    nodes,
    forwardIn,
    forwardOut,
    backOut,
    inCycle,
    maxIter,
    startId,
    persistWithNext: persistWithNextIn(t, nodes, registry),
    blocks,
    blockOf,
  };
}

/**
 * Basic blocks, as a compiler finds them: a node continues its predecessor's block when the predecessor has that one
 * outgoing edge and chooses no branch, the node has that one incoming edge, and neither is on a cycle (a cycle needs
 * its own trigger). A member that pauses ends its block's step; the resume starts the block again, passing over the
 * members that succeeded. LangGraph's cost per step
 * grows with the number of its nodes (each step walks every channel), so a 400-node chain as 400 LangGraph nodes cost
 * ~12× the DAG engine per node; as one block it runs like the DAG engine, every member still through runNode() with
 * its own snapshot and events, in the same order.
 */
function straightLineBlocks(
  t: Topology,
  nodes: Map<string, GraphNode>,
  inCycle: Set<string>,
  registry: Pick<ExecuteArgs['registry'], 'has' | 'get'>,
  startId: string,
) {
  const fusible = (id: string) => !inCycle.has(id) && registry.has(nodes.get(id)!.type);
  const continuation = (id: string): string | undefined => {
    const outs = t.outgoing.get(id)!;
    if (outs.length !== 1 || !fusible(id)) return undefined;
    const n = nodes.get(id)!;
    if (registry.get(n.type, n.data.version).outputsFor) return undefined;
    const target = outs[0].target;
    if (target === startId || !fusible(target) || t.incoming.get(target)!.length !== 1) return undefined;
    return target;
  };
  const next = new Map<string, string>();
  for (const id of t.ids) {
    const c = continuation(id);
    if (c !== undefined) next.set(id, c);
  }
  const continued = new Set(next.values());
  const blocks = new Map<string, string[]>();
  const blockOf = new Map<string, string>();
  for (const id of t.ids) {
    if (continued.has(id)) continue;
    const members = [id];
    for (let m = next.get(id); m !== undefined; m = next.get(m)) members.push(m);
    blocks.set(id, members);
    for (const m of members) blockOf.set(m, id);
  }
  return { blocks, blockOf };
}
