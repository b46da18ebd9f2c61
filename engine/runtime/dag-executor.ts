/**
 * The DAG engine: runs a node as soon as every incoming edge is decided, independent branches in parallel
 * (bounded), and propagates skips from untaken condition branches. When a node fails, its descendants are not
 * started but independent branches finish, so a resume re-runs only the failed node and what depends on it.
 * Everything it decides is scheduler-core.ts's: the frontier, the launch loop and the order of outcomes.
 */
import type { GraphNode } from '../graph/schema';
import { buildTopology } from '../graph/topology';
import { persistWithNextIn, runNode } from './run-node';
import {
  failedResult,
  finishedResult,
  Frontier,
  launchAll,
  nodeRunArgs,
  Outcomes,
  RunState,
  stageSkipped,
} from './scheduler-core';
import type { ExecuteArgs, ExecuteResult } from './types';
import { conversationState } from './conversation-state';

export async function executeDag(a: ExecuteArgs): Promise<ExecuteResult> {
  const t = buildTopology(a.graph);
  const nodes = new Map<string, GraphNode>(a.graph.nodes.map((n) => [n.id, n]));
  const state = new RunState(a.inputs, a.limits.templateMaxOutputChars, conversationState(a.graph, a.conversation));
  const persistWithNext = persistWithNextIn(t, nodes, a.registry);
  state.seed(a, nodes);

  const skip = (id: string) => stageSkipped(a, state, id, nodes.get(id)!.type, a.previous.get(id)?.attempt ?? 0);
  const frontier = new Frontier(state, t.incoming, t.outgoing, skip).considerAll(t.ids);
  const outcomes = new Outcomes();

  await launchAll({
    frontier,
    concurrency: Math.max(1, a.limits.dagConcurrency),
    stopped: () => outcomes.stopping || a.signal.aborted,
    launch: (id) => {
      const node = nodes.get(id)!;
      state.settled(id, 'running');
      const def = a.registry.get(node.type, node.data.version);
      const args = nodeRunArgs(a, node, def, state.scope, {
        previousAttempts: a.previous.get(id)?.attempt ?? 0,
        persistWithNext: persistWithNext.has(id),
      });
      return runNode(args).then(
        (out) => {
          if (outcomes.node(state, id, out, !!def.outputsFor, def)) frontier.after(id);
        },
        (err) => outcomes.threw(state, id, err),
      );
    },
  });

  return outcomes.result(a.signal, () => {
    const unfinished = t.ids.filter((id) => !state.status.has(id));
    if (unfinished.length)
      return failedResult({ code: 'UNREACHED_NODES', message: `nodes never became ready: ${unfinished.join(', ')}` });
    return finishedResult(a, state, a.graph.nodes, t);
  });
}
