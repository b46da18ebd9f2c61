/**
 * The Multi-agent node (Planner / Worker / Reviewer): a planner splits the task into steps with dependencies,
 * workers do the steps (independent ones at the same time, each a tool-using agent with a fresh conversation), a
 * reviewer judges each result and sends rejected ones back with its feedback, and the planner's model writes the
 * answer from the results. The orchestration is engine/agent/multi-agent/; this file resolves config and providers.
 *
 * Output: `{ answer, plan: [{ id, description, dependencies }], steps: [{ id, status, result, approved, attempts,
 * feedback, description, dependencies }], usage }`. `approved` is null for every step when `review` is false.
 */
import { z } from 'zod';
import { assembleTools } from '../../agent/assemble-tools';
import { runMultiAgent, type TeamRole } from '../../agent/multi-agent/run-multi-agent';
import { PaiError } from '../../errors';
import type { ProviderSettings } from '../../llm/types';
import { agentTask, asText } from '../shared/agent-task';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from '../shared/provider-settings';
import { defineNode, type NodeContext } from '../../node-kit/define';

const roleFields = {
  model: z.string().min(1).default('gpt-4o-mini'),
  fallbackModels: z
    .array(z.string().min(1))
    .max(5)
    .default([])
    .describe('Tried in order when the current model fails with a non-auth error'),
  systemPrompt: z.string().max(200_000).default('').describe("Added to the role's system message"),
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
};

const plannerSchema = z.strictObject(roleFields).prefault({}).describe('Plans the steps and writes the final answer');
const reviewerSchema = z.strictObject(roleFields).prefault({}).describe("Judges each step's result");
const workerSchema = z
  .strictObject({
    ...roleFields,
    tools: z
      .array(z.string().min(1).max(100))
      .max(200)
      .default([])
      .describe(
        'Tools each worker may use: calculator, current_time, http_fetch, memory_save, memory_recall, ' +
          'knowledge_search, workflow__<name>, mcp__<server>__<tool>; a trailing * selects by prefix',
      ),
  })
  .prefault({})
  .describe('Does each step (a tool-using agent)');

export const multiAgentConfigSchema = z.strictObject({
  task: z
    .string()
    .min(1, 'the task is required')
    .max(200_000)
    .describe('What the team should do; may contain {{refs}}'),
  planner: plannerSchema,
  worker: workerSchema,
  reviewer: reviewerSchema,
  maxParallel: z.number().int().min(1).max(16).default(4).describe('Independent steps running at the same time'),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe('Times a step the reviewer rejects is done again; then its last result is kept, marked unapproved'),
  review: z.boolean().default(true).describe('Have the reviewer judge each step (off: approved is null)'),
  maxSteps: z.number().int().min(1).max(50).default(10).describe('Most steps a plan may have'),
  workflowTools: z
    .array(
      z.strictObject({
        workflowId: z.string().min(1),
        name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ or -, at most 40'),
        description: z.string().max(1000).optional(),
      }),
    )
    .max(20)
    .default([])
    .describe('Workflows callable as tools by the workers, offered as workflow__<name> (select them in tools)'),
  knowledgeBaseIds: z
    .array(z.string().min(1))
    .max(20)
    .default([])
    .describe('Knowledge bases knowledge_search searches'),
  memory: z
    .strictObject({
      enabled: z.boolean().default(true),
      scope: z.enum(['workflow', 'global']).default('workflow').describe('Where memory_save writes'),
      topK: z.number().int().min(1).max(50).default(5),
      minScore: z.number().min(-1).max(1).default(0.3),
      halfLifeDays: z.number().min(0).max(36_500).default(30),
    })
    .prefault({})
    .describe('Long-term memory for the memory_save / memory_recall tools'),
  temperature: z.number().min(0).max(2).default(0.2),
  maxTokens: z.number().int().min(1).max(200_000).optional().describe('Per response'),
  llmRetries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe('Retries of one LLM request with backoff on 429/5xx before falling back'),
  limits: z
    .strictObject({
      tokenBudget: z
        .number()
        .int()
        .min(100)
        .max(50_000_000)
        .default(500_000)
        .describe('Input + output tokens over every call of the node'),
      maxRounds: z.number().int().min(1).max(100).default(10).describe("LLM rounds of one worker's agent loop"),
      toolTimeoutMs: z.number().int().min(10).max(600_000).default(60_000),
      batchTimeoutMs: z.number().int().min(10).max(1_800_000).default(90_000),
      maxParallelTools: z.number().int().min(1).max(4).default(4),
      maxToolResultChars: z.number().int().min(200).max(1_000_000).default(20_000),
      contextWindow: z.number().int().min(500).max(10_000_000).default(128_000),
    })
    .prefault({}),
});
export type MultiAgentConfig = z.infer<typeof multiAgentConfigSchema>;
type RoleConfig = z.infer<typeof plannerSchema>;

/** The role's provider settings; a problem's path names the role (`config.worker.credentialId`). */
async function roleSettings(ctx: NodeContext<MultiAgentConfig>, role: string, c: RoleConfig) {
  try {
    return await providerSettings(ctx, c);
  } catch (e) {
    if (!(e instanceof PaiError)) throw e;
    throw new PaiError(e.code, `${role}: ${e.message}`, {
      details: e.details,
      path: e.path?.replace(/^config\./, `config.${role}.`),
      cause: e,
    });
  }
}

export const multiAgentNode = defineNode<MultiAgentConfig>({
  type: 'multi_agent',
  version: 1,
  label: 'Multi-agent',
  category: 'ai',
  description:
    'A planner splits the task into steps, workers (tool-using agents) do them — independent ones in parallel — ' +
    'and a reviewer checks each result; the planner writes the answer.',
  configSchema: multiAgentConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'answer', description: 'The final answer' },
    { path: 'plan', description: "The planner's steps" },
    { path: 'steps', description: 'Each step with its worker result and review' },
    { path: 'usage', description: 'Tokens and cost of all agents' },
    { path: 'resumed', description: 'Whether the plan continued after a restart' },
    { path: 'providerLabel', description: "The planner's provider" },
  ],
  sideEffects: true,
  async execute(ctx) {
    const c = ctx.config;
    const settings: Record<'planner' | 'worker' | 'reviewer', ProviderSettings> = {
      planner: await roleSettings(ctx, 'planner', c.planner),
      worker: await roleSettings(ctx, 'worker', c.worker),
      reviewer: await roleSettings(ctx, 'reviewer', c.reviewer),
    };
    const role = (name: keyof typeof settings, r: RoleConfig): TeamRole => ({
      provider: ctx.llm(settings[name]),
      models: [r.model, ...r.fallbackModels],
      systemPrompt: asText(r.systemPrompt),
    });
    // A provider's error may quote the key it was given: it is scrubbed before the error is stored.
    try {
      const task = agentTask(c.task);
      const { tools, toolContext, warnings } = await assembleTools(ctx, {
        tools: c.worker.tools,
        workflowTools: c.workflowTools,
        knowledgeBaseIds: c.knowledgeBaseIds,
        memory: c.memory,
      });
      if (warnings.length) ctx.emit('node.progress', { warnings });
      const { tokenBudget, ...workerLimits } = c.limits;
      const planner = role('planner', c.planner);
      const result = await runMultiAgent({
        task,
        planner,
        worker: role('worker', c.worker),
        reviewer: role('reviewer', c.reviewer),
        tools,
        toolContext,
        maxSteps: c.maxSteps,
        maxParallel: c.maxParallel,
        maxRetries: c.maxRetries,
        review: c.review,
        tokenBudget,
        workerLimits,
        llmRetries: c.llmRetries,
        temperature: c.temperature,
        maxTokens: c.maxTokens,
        signal: ctx.signal,
        emit: ctx.emit,
        nodeSpanId: ctx.spanId,
        checkpoint: ctx.checkpoint,
      });
      return {
        output: {
          answer: result.answer,
          plan: result.plan,
          steps: result.steps,
          usage: result.usage,
          resumed: result.resumed,
          providerLabel: planner.provider.label,
        },
        usage: result.usage,
      };
    } catch (e) {
      throw scrubbedError(e, [settings.planner.apiKey, settings.worker.apiKey, settings.reviewer.apiKey]);
    }
  },
});
