import { z } from 'zod';
import { defineNode, NodePause, type ConfigProblem } from '../../node-kit/define';

export const humanInputConfigSchema = z.strictObject({
  prompt: z
    .string()
    .min(1, 'tell the human what to answer')
    .describe('Shown to the person who answers; may contain {{refs}}'),
  answerType: z.enum(['text', 'boolean', 'json']).default('text'),
});
export type HumanInputConfig = z.infer<typeof humanInputConfigSchema>;

/** What a human-input node keeps beside its checkpoint once answered (acceptAnswer). */
interface HumanAnswer {
  kind: 'human_input';
  answer: unknown;
}

/** Checks an answer against the node's answer type: text, true/false, or any JSON. */
function acceptHumanAnswer(config: unknown, answer: unknown): { value: HumanAnswer } | { problem: ConfigProblem } {
  const answerType = (config as { answerType?: string } | undefined)?.answerType ?? 'text';
  const problem = (message: string) => ({ problem: { code: 'INVALID_ANSWER', message, path: '' } });
  if (answerType === 'boolean' && typeof answer !== 'boolean') return problem('this node expects a true/false answer');
  if (answerType === 'text' && typeof answer !== 'string') return problem('this node expects a text answer');
  return { value: { kind: 'human_input', answer } };
}

/**
 * Pauses the run (status `waiting`, the run's `run.waiting` event carrying the rendered question) until
 * POST /api/runs/:id/answer, like every other pause (NodePause, on either engine): it saves a checkpoint, pauses,
 * and when the run continues finds the answer beside its checkpoint and returns it.
 */
export const humanInputNode = defineNode<HumanInputConfig>({
  type: 'human_input',
  capabilities: { pauses: true },
  version: 1,
  label: 'Human input',
  category: 'flow',
  description: 'Waits for a person to answer (approve, edit, choose) before the run continues.',
  configSchema: humanInputConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'answer', description: "The person's answer" },
    { path: 'prompt', description: 'What the person was asked' },
  ],
  acceptAnswer: (_prompt, answer, config) => acceptHumanAnswer(config, answer),
  async execute(ctx) {
    const saved = await ctx.checkpoint.load();
    const given = saved?.answer as Partial<HumanAnswer> | undefined;
    if (given?.kind === 'human_input') return { output: { answer: given.answer ?? null, prompt: ctx.config.prompt } };
    await ctx.checkpoint.save({ asked: ctx.config.prompt });
    throw new NodePause(ctx.config.prompt);
  },
});
