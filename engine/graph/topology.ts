import type { Graph, GraphEdge } from './schema';

/** Adjacency views of a graph, built once per run/validation. Edges whose ends do not exist are ignored here. */
export interface Topology {
  ids: string[];
  outgoing: Map<string, GraphEdge[]>;
  incoming: Map<string, GraphEdge[]>;
}

export function buildTopology(graph: Pick<Graph, 'nodes' | 'edges'>): Topology {
  const ids = graph.nodes.map((n) => n.id);
  const known = new Set(ids);
  const outgoing = new Map<string, GraphEdge[]>(ids.map((id) => [id, []]));
  const incoming = new Map<string, GraphEdge[]>(ids.map((id) => [id, []]));
  for (const e of graph.edges) {
    if (!known.has(e.source) || !known.has(e.target)) continue;
    outgoing.get(e.source)!.push(e);
    incoming.get(e.target)!.push(e);
  }
  return { ids, outgoing, incoming };
}

/** Finds one cycle (as the list of node ids along it) or null. Iterative DFS so 5,000-node chains do not overflow. */
export function findCycle(t: Topology): string[] | null {
  const state = new Map<string, 0 | 1 | 2>(); // 0 new, 1 on stack, 2 done
  for (const root of t.ids) {
    if (state.get(root)) continue;
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    const path: string[] = [root];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const outs = t.outgoing.get(top.id)!;
      if (top.i < outs.length) {
        const next = outs[top.i++].target;
        const s = state.get(next) ?? 0;
        if (s === 1) return path.slice(path.indexOf(next));
        if (s === 0) {
          state.set(next, 1);
          stack.push({ id: next, i: 0 });
          path.push(next);
        }
      } else {
        state.set(top.id, 2);
        stack.pop();
        path.pop();
      }
    }
  }
  return null;
}

export function reachableFrom(t: Topology, starts: string[]): Set<string> {
  const seen = new Set<string>(starts);
  const queue = [...starts];
  while (queue.length) {
    const id = queue.pop()!;
    for (const e of t.outgoing.get(id) ?? [])
      if (!seen.has(e.target)) {
        seen.add(e.target);
        queue.push(e.target);
      }
  }
  return seen;
}

/**
 * The nodes from which only nodes satisfying `ok` can be reached (a node on a cycle never qualifies, nor one that
 * reaches a cycle); a node without successors qualifies. Linear in the graph.
 */
export function leadsOnlyTo(t: Topology, ok: (id: string) => boolean): Set<string> {
  const verdict = new Map<string, boolean>(); // false while a node is being explored: reaching it again is a cycle
  for (const root of t.ids) {
    if (verdict.has(root)) continue;
    verdict.set(root, false);
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const outs = t.outgoing.get(top.id)!;
      if (top.i < outs.length) {
        const next = outs[top.i++].target;
        if (ok(next) && !verdict.has(next)) {
          verdict.set(next, false);
          stack.push({ id: next, i: 0 });
          continue;
        }
        // A successor that fails `ok`, is on the current path (a cycle) or was found not to qualify: every node on
        // the path reaches it, so none qualifies (they keep their `false`).
        if (!ok(next) || !verdict.get(next)) stack.length = 0;
      } else {
        verdict.set(top.id, true);
        stack.pop();
      }
    }
  }
  return new Set(t.ids.filter((id) => verdict.get(id)));
}

export function ancestorsOf(t: Topology, id: string): Set<string> {
  const seen = new Set<string>();
  const queue = [id];
  while (queue.length) {
    const cur = queue.pop()!;
    for (const e of t.incoming.get(cur) ?? [])
      if (!seen.has(e.source)) {
        seen.add(e.source);
        queue.push(e.source);
      }
  }
  return seen;
}

/** The node and everything downstream of it. */
export function descendantsOf(t: Topology, id: string): Set<string> {
  return reachableFrom(t, [id]);
}
