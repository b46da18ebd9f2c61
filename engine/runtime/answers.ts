/**
 * A person's answer to a waiting run, checked before it is stored: a human-input node's by its answer type, a node
 * that paused itself by what it asked (a breakpoint's by breakpoints.ts, an agent's tool approval by its node type's
 * `acceptAnswer`). A bad answer is a 400 with a path under `answer`.
 */
import { PaiError } from '../errors';
import type { GraphNode } from '../graph/schema';
import type { NodeRegistry } from '../nodes/registry';
import { acceptBreakpointAnswer } from './breakpoints';

/** Who answered a paused run (the trace records it). */
export interface AnswerAuthor {
  userId: string;
  name: string;
}

export function humanAnswer(node: GraphNode, value: unknown): unknown {
  const answerType = (node.data.config as { answerType?: string } | undefined)?.answerType ?? 'text';
  if (answerType === 'boolean' && typeof value !== 'boolean')
    throw new PaiError('INVALID_ANSWER', 'this node expects a true/false answer', { status: 400, path: 'answer' });
  if (answerType === 'text' && typeof value !== 'string')
    throw new PaiError('INVALID_ANSWER', 'this node expects a text answer', { status: 400, path: 'answer' });
  return value;
}

/** A node that paused itself: the answer checked against what it asked (`waiting.prompt`), with who and when. */
export function pauseAnswer(
  registry: NodeRegistry,
  node: GraphNode,
  waiting: Record<string, unknown> | undefined,
  value: unknown,
  by?: AnswerAuthor,
): Record<string, unknown> {
  const def = registry.has(node.type) ? registry.get(node.type, node.data.version) : undefined;
  const prompt = (waiting?.prompt ?? {}) as Record<string, unknown>;
  const checked =
    prompt.kind === 'breakpoint'
      ? acceptBreakpointAnswer(value)
      : def?.acceptAnswer
        ? def.acceptAnswer(prompt, value)
        : { value };
  if ('problem' in checked) {
    const p = checked.problem;
    throw new PaiError(p.code, p.message, { status: 400, path: p.path ? `answer.${p.path}` : 'answer' });
  }
  const v = checked.value;
  return {
    ...(v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v }),
    by: by ?? null,
    at: new Date().toISOString(),
  };
}
