/**
 * The call-cycle check for calls of other workflows (sub-workflow nodes and agents' `workflowTools`): no workflow
 * may call itself, directly or through others. Cycles are followed through the other workflows' drafts (what the
 * next save or publish of each would run); at run time the runner's nesting limit bounds whatever slips past, e.g.
 * through older published versions. That a called workflow exists in the workspace is checked with the other
 * references (references.ts).
 */
import type { Graph } from '@/engine/graph/schema';
import type { Problem } from '@/engine/graph/validate';
import { workflowCallsOf } from '@/engine/graph/workflow-calls';
import type { WorkflowRecord } from '@/engine/store/types';

export interface CallStore {
  getWorkflow(id: string, workspaceId?: string): Promise<WorkflowRecord | null>;
}

/** More workflows than this behind one save are not followed (the runner's nesting limit still holds). */
const MAX_VISITED = 1000;

/**
 * WORKFLOW_CALL_CYCLE problems of `graph`, the graph of workflow `selfId` (null: a workflow not stored yet, which
 * nothing can call) in `workspaceId`, each at the JSON path of the calling `workflowId`.
 */
export async function workflowCallCycles(
  store: CallStore,
  workspaceId: string,
  selfId: string | null,
  graph: Pick<Graph, 'nodes'>,
): Promise<Problem[]> {
  const calls = workflowCallsOf(graph);
  if (!calls.length || !selfId) return [];
  const cache = new Map<string, Promise<WorkflowRecord | null>>();
  const load = (id: string) => {
    let p = cache.get(id);
    if (!p) cache.set(id, (p = store.getWorkflow(id, workspaceId)));
    return p;
  };

  /** A chain of workflows from `from` back to `selfId` through drafts (ids, `from` first), or null. */
  const pathBack = async (from: string): Promise<string[] | null> => {
    const seen = new Set<string>([from]);
    const stack: string[][] = [[from]];
    while (stack.length && seen.size <= MAX_VISITED) {
      const chain = stack.pop()!;
      const wf = await load(chain[chain.length - 1]);
      if (!wf) continue;
      for (const c of workflowCallsOf(wf.graph)) {
        if (c.workflowId === selfId) return [...chain, selfId];
        if (seen.has(c.workflowId)) continue;
        seen.add(c.workflowId);
        stack.push([...chain, c.workflowId]);
      }
    }
    return null;
  };

  const problems: Problem[] = [];
  const nameOf = async (id: string) => (id === selfId ? 'this workflow' : `"${(await load(id))?.name ?? id}"`);
  for (const call of calls) {
    const where = call.nodeType === 'workflow' ? 'the sub-workflow' : 'the workflow tool';
    if (call.workflowId === selfId) {
      problems.push({
        code: 'WORKFLOW_CALL_CYCLE',
        message: `${where} calls this workflow itself`,
        path: call.path,
        nodeIds: [call.nodeId],
      });
      continue;
    }
    const back = await pathBack(call.workflowId);
    if (back) {
      const names = await Promise.all(back.map(nameOf));
      problems.push({
        code: 'WORKFLOW_CALL_CYCLE',
        message: `${where} makes a cycle of calls: this workflow → ${names.join(' → ')}`,
        path: call.path,
        nodeIds: [call.nodeId],
      });
    }
  }
  return problems;
}
