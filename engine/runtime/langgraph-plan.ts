/**
 * The state-graph engine's plan of a stored graph, computed once per compiled graph: forward and back edges (DFS
 * from the start node), the nodes on cycles and their iteration limits, which snapshots ride with the next commit,
 * and whether a run can pause.
 */
import type { GraphEdge, GraphNode } from '../graph/schema';
import { buildTopology, findCycle, reachableFrom, type Topology } from '../graph/topology';
import type { ExecuteArgs } from './dag-executor';
import { persistWithNextIn } from './run-node';

const DEFAULT_MAX_ITERATIONS = Number(process.env.LOOP_MAX_ITERATIONS ?? 25);

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
  /** Has a human-input node: runs can pause, so LangGraph checkpoints them. */
  canPause: boolean;
}

/** Classifies edges into forward and back edges (DFS from the start node) and finds the nodes on cycles. */
export function planGraph(args: Pick<ExecuteArgs, 'graph' | 'registry'>): Plan {
  const { graph, registry } = args;
  const t = buildTopology(graph);
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const startId = graph.nodes.find((n) => n.type === 'start')!.id;
  const back = new Set<string>();
  const state = new Map<string, 1 | 2>();
  const stack: Array<{ id: string; i: number }> = [{ id: startId, i: 0 }];
  state.set(startId, 1);
  while (stack.length) {
    const top = stack[stack.length - 1];
    const outs = t.outgoing.get(top.id)!;
    if (top.i < outs.length) {
      const e = outs[top.i++];
      const s = state.get(e.target);
      if (s === 1) back.add(e.id);
      else if (!s) {
        state.set(e.target, 1);
        stack.push({ id: e.target, i: 0 });
      }
    } else {
      state.set(top.id, 2);
      stack.pop();
    }
  }
  const forwardIn = new Map<string, GraphEdge[]>();
  const forwardOut = new Map<string, GraphEdge[]>();
  const backOut = new Map<string, GraphEdge[]>();
  for (const id of t.ids) {
    forwardIn.set(
      id,
      t.incoming.get(id)!.filter((e) => !back.has(e.id)),
    );
    forwardOut.set(
      id,
      t.outgoing.get(id)!.filter((e) => !back.has(e.id)),
    );
    backOut.set(
      id,
      t.outgoing.get(id)!.filter((e) => back.has(e.id)),
    );
  }
  const inCycle = new Set<string>();
  const maxIter = new Map<string, number>();
  if (findCycle(t)) {
    const reach = new Map(
      t.ids.map((id) => [
        id,
        reachableFrom(
          t,
          t.outgoing.get(id)!.map((e) => e.target),
        ),
      ]),
    );
    for (const id of t.ids) if (reach.get(id)!.has(id)) inCycle.add(id);
    for (const id of inCycle) {
      let limit = Number((nodes.get(id)!.data as { maxIterations?: number }).maxIterations ?? DEFAULT_MAX_ITERATIONS);
      for (const other of inCycle) {
        const n = nodes.get(other)!;
        if (n.type === 'loop' && reach.get(id)!.has(other) && reach.get(other)!.has(id)) {
          const cfg = registry.get('loop').configSchema.safeParse(n.data.config ?? {});
          limit = Math.max(limit, (cfg.success ? (cfg.data as { maxIterations: number }).maxIterations : 100) + 1);
        }
      }
      maxIter.set(id, limit);
    }
  }
  const canPause = graph.nodes.some((n) => n.type === 'human_input');
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
    canPause,
  };
}
