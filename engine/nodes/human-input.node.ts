import { z } from 'zod';
import { defineNode } from './define';

export const humanInputConfigSchema = z.strictObject({
  prompt: z
    .string()
    .min(1, 'tell the human what to answer')
    .describe('Shown to the person who answers; may contain {{refs}}'),
  answerType: z.enum(['text', 'boolean', 'json']).default('text'),
});
export type HumanInputConfig = z.infer<typeof humanInputConfigSchema>;

/**
 * Pauses the run (status `waiting`) until POST /api/runs/:id/answer. The state-graph engine does the pausing with
 * LangGraph's interrupt(); when resumed, `ctx.resume` holds the answer and this node returns it.
 */
export const humanInputNode = defineNode<HumanInputConfig>({
  type: 'human_input',
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
  async execute(ctx) {
    return { output: { answer: ctx.resume ?? null, prompt: ctx.config.prompt } };
  },
});
