/**
 * Node breakpoints of editor test runs: a node marked with one (or every node, in step mode) pauses the run before it
 * executes, showing its resolved input. The person answers Continue (run on; the next breakpoint pauses again), Step
 * (pause before the next node too) or Stop (the run is cancelled), optionally with an edited input; the answer is
 * stored beside the node's checkpoint, so a paused run survives a restart. A node that is already past its
 * breakpoint (its checkpoint holds progress, or an answer to another pause such as a tool approval) does not pause
 * again.
 */
import { PaiError } from '../errors';
import type { Graph, GraphNode } from '../graph/schema';
import type { ConfigProblem } from '../node-kit/define';
import type { RunJournal } from './run-journal';
import type { NodeRegistry } from '../node-kit/registry';
import type { RunDebug } from '../store/types';

/** Whether a debugging run pauses before this node: a breakpoint on it, or step mode (never before the entry). */
export function pausesBefore(
  a: { debug?: RunDebug | null; registry: Pick<NodeRegistry, 'capabilitiesOf'> },
  node: GraphNode,
): boolean {
  const d = a.debug;
  return !!d && (d.step || d.breakpoints.includes(node.id)) && !a.registry.capabilitiesOf(node).entry;
}

/** The node whose breakpoint was just answered: it takes its answer (an edited input) even if it would not pause. */
export const breakpointAnswered = (a: { debug?: RunDebug | null }, node: GraphNode): boolean =>
  a.debug?.answered === node.id;

export type BreakpointAction = 'continue' | 'step' | 'stop';

export interface BreakpointAnswer {
  kind: 'breakpoint';
  action: BreakpointAction;
  /** The node's resolved input (its config) as the person edited it. */
  input?: Record<string, unknown>;
  by?: { userId: string; name: string } | null;
  at?: string;
}

export type BreakpointGate =
  { pause: { kind: 'breakpoint'; nodeId: string; input: unknown } } | { config: unknown; answer?: BreakpointAnswer };

export async function breakpointGate(
  journal: RunJournal,
  nodeKey: string,
  nodeId: string,
  config: unknown,
  shownInput: unknown,
): Promise<BreakpointGate> {
  const saved = await journal.loadCheckpoint(nodeKey);
  const answer = saved?.answer as Partial<BreakpointAnswer> | null | undefined;
  if (answer?.kind === 'breakpoint') {
    // Consumed: the node runs now; reaching it again (another pass, a later resume) pauses again.
    journal.stageCheckpoint({ ...saved!, answer: null, updatedAt: new Date().toISOString() });
    return { config: answer.input ?? config, answer: answer as BreakpointAnswer };
  }
  if (saved?.state != null || answer != null) return { config }; // already past its breakpoint
  return { pause: { kind: 'breakpoint', nodeId, input: shownInput } };
}

/** Checks a person's answer to a breakpoint: `{ action: "continue" | "step" | "stop", input? }`. */
export function acceptBreakpointAnswer(answer: unknown): { value: BreakpointAnswer } | { problem: ConfigProblem } {
  const problem = (message: string, path: string) => ({ problem: { code: 'INVALID_ANSWER', message, path } });
  if (!answer || typeof answer !== 'object' || Array.isArray(answer))
    return problem('answer with { action: "continue" | "step" | "stop", input? }', '');
  const a = answer as Record<string, unknown>;
  if (a.action !== 'continue' && a.action !== 'step' && a.action !== 'stop')
    return problem('action must be "continue", "step" or "stop"', 'action');
  if (a.input !== undefined && (!a.input || typeof a.input !== 'object' || Array.isArray(a.input)))
    return problem("the edited input must be a JSON object (the node's resolved config)", 'input');
  return {
    value: {
      kind: 'breakpoint',
      action: a.action,
      ...(a.input !== undefined ? { input: a.input as Record<string, unknown> } : {}),
    },
  };
}

/** The run's breakpoints, de-duplicated; one on a node the graph does not have is a 400 with its path. */
export function checkBreakpoints(graph: Graph, ids: string[]): string[] {
  ids.forEach((id, i) => {
    if (!graph.nodes.some((n) => n.id === id))
      throw new PaiError('NODE_NOT_FOUND', `breakpoint on node "${id}", which is not in the workflow`, {
        path: `breakpoints[${i}]`,
      });
  });
  return [...new Set(ids)];
}
