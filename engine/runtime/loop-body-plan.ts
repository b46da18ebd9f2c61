/**
 * The body of each loop node that runs its items in parallel (list mode, concurrency > 1): the nodes reachable from
 * the loop's `body` handle without passing through the loop. The loop node executes them itself, once per item
 * (body-runner.ts), instead of LangGraph running them around the cycle. For that the body must mean the same thing
 * per item: entered only from the loop's `body` handle, left only back to the loop, free of cycles, and without a
 * node that waits for a person. A body that is not is reported as the loop's failure, naming the node.
 *
 * Computed once per compiled graph (cached by its Plan).
 */
import type { ErrorJson } from '../errors';
import type { GraphEdge } from '../graph/schema';
import { topologicalOrder } from '../graph/topology';
import type { NodeRegistry } from '../node-kit/registry';
import type { Plan } from './langgraph-plan';
import type { RunState } from './scheduler-core';

export interface LoopBodyPlan {
  loopId: string;
  /** The body's node ids in a topological order (of the edges inside the body). */
  order: string[];
  /** Each body node's incoming edges: from the loop's `body` handle or from other body nodes. */
  incoming: Map<string, GraphEdge[]>;
  /** Why this body cannot run per item; undefined when it can. */
  problem?: ErrorJson;
}

const cache = new WeakMap<Plan, Map<string, LoopBodyPlan>>();

function bodyOf(plan: Plan, registry: NodeRegistry, loopId: string): LoopBodyPlan {
  const { t, nodes } = plan;
  const fail = (code: string, message: string, nodeId?: string): LoopBodyPlan => ({
    loopId,
    order: [],
    incoming: new Map(),
    problem: { code, message, details: { loopId, ...(nodeId ? { nodeId } : {}) } },
  });
  const members = new Set<string>();
  const queue = t.outgoing
    .get(loopId)!
    .filter((e) => e.sourceHandle === 'body')
    .map((e) => e.target);
  while (queue.length) {
    const id = queue.pop()!;
    if (id === loopId || members.has(id)) continue;
    members.add(id);
    for (const e of t.outgoing.get(id)!) queue.push(e.target);
  }
  const incoming = new Map<string, GraphEdge[]>();
  for (const id of members) {
    const node = nodes.get(id)!;
    // A parallel body may not hold a nested iterating node (its own cycle) or a node that exists to pause.
    const caps = registry.capabilitiesOf(node);
    if (caps.iterates || caps.pauses || !registry.has(node.type))
      return fail(
        'LOOP_BODY_NOT_PARALLEL',
        `node "${id}" (${node.type}) cannot run in the body of loop "${loopId}" with concurrency > 1; ` +
          'set concurrency to 1',
        id,
      );
    for (const e of t.incoming.get(id)!) {
      const fromLoop = e.source === loopId && e.sourceHandle === 'body';
      if (!fromLoop && !members.has(e.source))
        return fail(
          'LOOP_BODY_NOT_CLOSED',
          `node "${id}" is in the body of loop "${loopId}" but is also reached from "${e.source}" outside it; ` +
            'with concurrency > 1 the body must be entered only from the loop\'s "body" handle and lead only back ' +
            'to the loop',
          id,
        );
    }
    incoming.set(id, t.incoming.get(id)!);
  }
  // The edges inside the body, in dependency order (edges back to the loop end an item).
  const { order, rest } = topologicalOrder(t, members);
  if (rest.length)
    return fail(
      'LOOP_BODY_NOT_PARALLEL',
      `the body of loop "${loopId}" has a cycle (through "${rest[0]}"); with concurrency > 1 it must not`,
      rest[0],
    );
  return { loopId, order, incoming };
}

/** The graph's parallel loops (loop node id → its body), computed once per plan. */
export function parallelLoopsOf(plan: Plan, registry: NodeRegistry): Map<string, LoopBodyPlan> {
  let loops = cache.get(plan);
  if (!loops) {
    loops = new Map();
    for (const [id, node] of plan.nodes)
      if (registry.capabilitiesOf(node).iterates?.parallel(node.data.config)) loops.set(id, bodyOf(plan, registry, id));
    cache.set(plan, loops);
  }
  return loops;
}

/**
 * On a resume: the stored snapshots of a parallel loop's body nodes stand for the last item that ran them, which
 * means nothing outside the loop until the loop itself has succeeded. Until then they are not reused, so that no body
 * node is restarted on its own outside its loop, and the loop (its checkpoint) decides which items run again.
 */
export function releaseLoopBodies(plan: Plan, registry: NodeRegistry, state: RunState): void {
  for (const [loopId, body] of parallelLoopsOf(plan, registry)) {
    if (state.status.get(loopId) === 'succeeded') continue;
    for (const id of body.order) {
      state.status.delete(id);
      state.branch.delete(id);
      state.passes.delete(id);
      delete state.scope.nodes[id];
    }
  }
}
