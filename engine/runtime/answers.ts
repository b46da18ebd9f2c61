/**
 * A person's answer to a waiting run, checked before it is stored beside the paused node's checkpoint: a
 * breakpoint's by breakpoints.ts, any other by its node type's `acceptAnswer` (a human-input node's answer type, an
 * agent's tool approval). A bad answer is a 400 with a path under `answer`.
 */
import { PaiError } from '../errors';
import type { GraphNode } from '../graph/schema';
import type { NodeRegistry } from '../node-kit/registry';
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
