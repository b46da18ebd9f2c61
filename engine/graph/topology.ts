/**
 * The one graph-traversal module: adjacency, depth-first order with back edges, cycles, strongly connected
 * components, topological order, reachability. The engines, the validator and the editor's layout all walk graphs
 * through it. Every walk is iterative, so a 5,000-node chain does not overflow the stack.
 *
 * It works on any edge with a `source` and a `target` (stored graph edges, the editor's React Flow edges).
 */
import type { GraphEdge } from './schema';

export interface EdgeLike {
  source: string;
  target: string;
}

/** Adjacency views of a graph, built once per run/validation. Edges whose ends do not exist are ignored here. */
export interface Topology<E extends EdgeLike = GraphEdge> {
  ids: string[];
  outgoing: Map<string, E[]>;
  incoming: Map<string, E[]>;
}

export function buildTopology<E extends EdgeLike = GraphEdge>(graph: {
  nodes: ReadonlyArray<{ id: string }>;
  edges: ReadonlyArray<E>;
}): Topology<E> {
  const ids = graph.nodes.map((n) => n.id);
  const known = new Set(ids);
  const outgoing = new Map<string, E[]>(ids.map((id) => [id, []]));
  const incoming = new Map<string, E[]>(ids.map((id) => [id, []]));
  for (const e of graph.edges) {
    if (!known.has(e.source) || !known.has(e.target)) continue;
    outgoing.get(e.source)!.push(e);
    incoming.get(e.target)!.push(e);
  }
  return { ids, outgoing, incoming };
}

export interface DepthFirstWalk<E extends EdgeLike> {
  /** Nodes in the order the walk first reaches them. */
  order: string[];
  /** Edges that close a cycle: from a node back to one still on the walk's path. */
  back: Set<E>;
  /** The reached nodes in a topological order of the other (forward) edges: reverse post-order. */
  topo: string[];
}

/**
 * Depth-first walk from each root in turn (roots already reached are passed over), following each node's outgoing
 * edges in their order. `onBack` sees each back edge with the walk's path at that moment; returning true stops the
 * walk. Nodes not reachable from the roots are not visited.
 */
export function depthFirst<E extends EdgeLike>(
  t: Topology<E>,
  roots: Iterable<string>,
  onBack?: (edge: E, path: readonly string[]) => boolean | void,
): DepthFirstWalk<E> {
  const state = new Map<string, 'open' | 'done'>();
  const order: string[] = [];
  const back = new Set<E>();
  const post: string[] = [];
  for (const root of roots) {
    if (state.has(root) || !t.outgoing.has(root)) continue;
    state.set(root, 'open');
    order.push(root);
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    const path = [root];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const outs = t.outgoing.get(top.id)!;
      if (top.i < outs.length) {
        const e = outs[top.i++];
        const s = state.get(e.target);
        if (s === 'open') {
          back.add(e);
          if (onBack?.(e, path)) return { order, back, topo: post.reverse() };
        } else if (!s) {
          state.set(e.target, 'open');
          order.push(e.target);
          stack.push({ id: e.target, i: 0 });
          path.push(e.target);
        }
      } else {
        state.set(top.id, 'done');
        post.push(top.id);
        stack.pop();
        path.pop();
      }
    }
  }
  return { order, back, topo: post.reverse() };
}

/** Finds one cycle (as the list of node ids along it) or null. */
export function findCycle<E extends EdgeLike>(t: Topology<E>): string[] | null {
  let cycle: string[] | null = null;
  depthFirst(t, t.ids, (e, path) => {
    cycle = path.slice(path.indexOf(e.target));
    return true;
  });
  return cycle;
}

/**
 * The nodes that lie on a cycle, each with the id of its strongly connected component (Tarjan's algorithm): two
 * nodes on cycles have the same component exactly when each reaches the other.
 */
export function nodesOnCycles<E extends EdgeLike>(t: Topology<E>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let next = 0;
  let components = 0;
  for (const root of t.ids) {
    if (index.has(root)) continue;
    const work: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1];
      const outs = t.outgoing.get(top.id)!;
      if (top.i < outs.length) {
        const target = outs[top.i++].target;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ id: target, i: 0 });
        } else if (onStack.has(target)) low.set(top.id, Math.min(low.get(top.id)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.id)!));
      }
      if (low.get(top.id) !== index.get(top.id)) continue;
      const members: string[] = [];
      let id: string;
      do {
        id = stack.pop()!;
        onStack.delete(id);
        members.push(id);
      } while (id !== top.id);
      const selfLoop = t.outgoing.get(top.id)!.some((e) => e.target === top.id);
      if (members.length > 1 || selfLoop) {
        for (const m of members) component.set(m, components);
        components++;
      }
    }
  }
  return component;
}

/**
 * The nodes of `within` (default: all) in a topological order of the edges among them (Kahn's algorithm, ties in
 * the order of `t.ids`); `rest` holds the ones on a cycle or after one, which have no such order.
 */
export function topologicalOrder<E extends EdgeLike>(
  t: Topology<E>,
  within: ReadonlySet<string> = new Set(t.ids),
): { order: string[]; rest: string[] } {
  const members = t.ids.filter((id) => within.has(id));
  const indegree = new Map(members.map((id) => [id, t.incoming.get(id)!.filter((e) => within.has(e.source)).length]));
  const ready = members.filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  for (let i = 0; i < ready.length; i++) {
    const id = ready[i];
    order.push(id);
    for (const e of t.outgoing.get(id)!) {
      if (!within.has(e.target)) continue;
      const left = indegree.get(e.target)! - 1;
      indegree.set(e.target, left);
      if (left === 0) ready.push(e.target);
    }
  }
  const placed = new Set(order);
  return { order, rest: members.filter((id) => !placed.has(id)) };
}

/** The starts and every node reachable from them. */
export function reachableFrom<E extends EdgeLike>(t: Topology<E>, starts: string[]): Set<string> {
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
export function leadsOnlyTo<E extends EdgeLike>(t: Topology<E>, ok: (id: string) => boolean): Set<string> {
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

/** Every node from which `id` can be reached (itself only when it is on a cycle). */
export function ancestorsOf<E extends EdgeLike>(t: Topology<E>, id: string): Set<string> {
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
export function descendantsOf<E extends EdgeLike>(t: Topology<E>, id: string): Set<string> {
  return reachableFrom(t, [id]);
}
