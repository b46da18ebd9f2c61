/**
 * A person's answer to a waiting run, checked before it is stored beside the paused node's checkpoint: a
 * breakpoint's by breakpoints.ts, any other by its node type's `acceptAnswer` (a human-input node's answer type, an
 * agent's tool approval). A bad answer is a 400 with a path under `answer`.
 */
import { PaiError } from '../errors';
import type { GraphNode } from '../graph/schema';
import type { NodeRegistry } from '../node-kit/registry';
import type { RunStore } from '../store/types';
import { acceptBreakpointAnswer } from './breakpoints';

/** Who answered a paused run (the trace records it). */
export interface AnswerAuthor {
  userId: string;
  name: string;
}

/** The answer checked against what the paused node asked (`waiting.prompt`), with who and when. */
export function pauseAnswer(
  registry: NodeRegistry,
  node: GraphNode,
  waiting: Record<string, unknown> | undefined,
  value: unknown,
  by?: AnswerAuthor,
): Record<string, unknown> {
  const def = registry.has(node.type) ? registry.get(node.type, node.data.version) : undefined;
  const asked = waiting?.prompt;
  const prompt = (asked && typeof asked === 'object' ? asked : { question: asked ?? null }) as Record<string, unknown>;
  const checked =
    prompt.kind === 'breakpoint'
      ? acceptBreakpointAnswer(value)
      : def?.acceptAnswer
        ? def.acceptAnswer(prompt, value, node.data.config)
        : { value };
  if ('problem' in checked) {
    const p = checked.problem;
    throw new PaiError(p.code, p.message, { path: p.path ? `answer.${p.path}` : 'answer' });
  }
  const v = checked.value;
  return {
    ...(v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v }),
    by: by ?? null,
    at: new Date().toISOString(),
  };
}

/** The pause a waiting run waits on, from its `run.waiting` event: what it asked, where the answer goes, its pass. */
export interface WaitedPause {
  /** The `run.waiting` event's data (the prompt), if the event is found. */
  event?: Record<string, unknown>;
  /** The node's operation key: its checkpoint's, where the answer is stored. */
  nodeKey: string;
  /** On a cycle: the pass the node paused in. */
  pass?: number;
}

/** The pause run `runId` waits on, which must be `nodeId`'s (else WRONG_NODE). */
export async function pauseWaitedOn(store: RunStore, runId: string, nodeId: string): Promise<WaitedPause> {
  const events = await store.getEvents(runId, Math.max(0, (await store.maxSeq(runId)) - 50));
  const waiting = [...events].reverse().find((e) => e.type === 'run.waiting');
  const waitingNode = waiting?.data.nodeId as string | undefined;
  if (waitingNode && waitingNode !== nodeId)
    throw new PaiError('WRONG_NODE', `the run is waiting on node "${waitingNode}", not "${nodeId}"`, {
      path: 'nodeId',
    });
  const nodeKey = (waiting?.data.nodeKey as string | undefined) ?? nodeId;
  return { event: waiting?.data, nodeKey, ...passOf(waiting?.data, nodeId, nodeKey) };
}

/**
 * The loop pass a paused node waits in. Events written before the pass was recorded name it only in the operation
 * key (`<nodeId>:<pass>`), which is read for them.
 */
function passOf(data: Record<string, unknown> | undefined, nodeId: string, nodeKey: string): { pass?: number } {
  if (typeof data?.pass === 'number') return { pass: data.pass };
  const legacy = nodeKey.startsWith(`${nodeId}:`) ? Number(nodeKey.slice(nodeId.length + 1)) : NaN;
  return Number.isInteger(legacy) && legacy > 0 ? { pass: legacy } : {};
}
