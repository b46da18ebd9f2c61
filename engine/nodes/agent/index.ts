/**
 * The Agent node: assembles what the agent may use (built-ins, memory, knowledge, workflows and MCP tools, narrowed
 * to the node's selection), recalls long-term memories into the system prompt, and runs the ReAct harness
 * (engine/agent/run-agent.ts) on the node's model chain. Missing services turn tools off with a warning; they never
 * fail the node.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { acceptApproval } from '../../agent/agent-checkpoint';
import { assembleTools } from '../../agent/assemble-tools';
import { memoryPromptBlock } from '../../agent/memory/memory';
import { ModelChain } from '../../agent/model-chain';
import { runAgent } from '../../agent/run-agent';
import { skillTools, skillsPromptBlock } from '../../agent/tools/skill-tools';
import type { AgentServices, AgentTool, RecalledMemory, SkillSummary } from '../../node-kit/agent-services';
import { PaiError } from '../../errors';
import { DEFAULT_WORKSPACE_ID } from '../../store/types';
import type { ChatMessage } from '../../llm/types';
import { imageInputs, imagesConfigSchema } from '../../media/image-inputs';
import { agentTask, asText } from '../shared/agent-task';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from '../shared/provider-settings';
import { defineNode } from '../../node-kit/define';

const historyMessage = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string() });

export const agentConfigSchema = z.strictObject({
  model: z.string().min(1).default('gpt-4o-mini').describe('Primary model'),
  fallbackModels: z
    .array(z.string().min(1))
    .max(5)
    .default([])
    .describe('Tried in order when the current model fails with a non-auth error'),
  systemPrompt: z.string().max(200_000).default(''),
  task: z
    .string()
    .min(1, 'the task is required')
    .max(200_000)
    .describe('What the agent should do; may contain {{refs}}'),
  history: z
    .union([z.string(), z.array(historyMessage).max(1000)])
    .optional()
    .describe('Earlier conversation, [{ role: "user"|"assistant", content }], or a {{ref}} to one'),
  tools: z
    .array(z.string().min(1).max(100))
    .max(200)
    .default([])
    .describe(
      'Tools the agent may use: calculator, current_time, http_fetch, memory_save, memory_recall, ' +
        'knowledge_search, workflow__<name>, mcp__<server>__<tool>; a trailing * selects by prefix (mcp__github__*)',
    ),
  toolApproval: z
    .array(z.string().min(1).max(100))
    .max(200)
    .default([])
    .describe('Tools whose calls wait for a person to approve, edit or reject them (names; * for all, or a prefix*)'),
  skills: z
    .array(z.string().min(1).max(64))
    .max(50)
    .default([])
    .describe('Skills the agent may load (only their names and descriptions are in its prompt)'),
  workflowTools: z
    .array(
      z.strictObject({
        workflowId: z.string().min(1),
        name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ or -, at most 40'),
        description: z.string().max(1000).optional(),
        version: z
          .union([z.enum(['published', 'draft']), z.number().int().min(1)])
          .optional()
          .describe(
            "In editor test runs: the child's draft (default), its published version, or a version number; a " +
              'published workflow always calls the version pinned when it was published',
          ),
      }),
    )
    .max(20)
    .default([])
    .describe('Workflows callable as tools, offered as workflow__<name> (select them in "tools")'),
  knowledgeBaseIds: z
    .array(z.string().min(1))
    .max(20)
    .default([])
    .describe('Knowledge bases knowledge_search searches'),
  temperature: z.number().min(0).max(2).default(0.2),
  maxTokens: z.number().int().min(1).max(200_000).optional().describe('Per response'),
  stream: z.boolean().default(true).describe('Stream tokens to the live view'),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe('Retries with backoff on 429/5xx before falling back'),
  limits: z
    .strictObject({
      maxRounds: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(10)
        .describe('LLM rounds before the node fails with AGENT_MAX_ROUNDS'),
      tokenBudget: z
        .number()
        .int()
        .min(100)
        .max(50_000_000)
        .default(200_000)
        .describe('Input + output tokens over the whole node'),
      toolTimeoutMs: z.number().int().min(10).max(600_000).default(60_000),
      batchTimeoutMs: z.number().int().min(10).max(1_800_000).default(90_000).describe('All tool calls of one round'),
      maxParallelTools: z.number().int().min(1).max(4).default(4),
      maxToolResultChars: z.number().int().min(200).max(1_000_000).default(20_000),
      contextWindow: z
        .number()
        .int()
        .min(500)
        .max(10_000_000)
        .default(128_000)
        .describe("The model's context window in tokens; compaction starts at 85 %"),
    })
    .prefault({}),
  memory: z
    .strictObject({
      enabled: z.boolean().default(true),
      scope: z
        .enum(['workflow', 'global'])
        .default('workflow')
        .describe('Where memory_save writes; recall reads this workflow and global'),
      autoRecall: z.boolean().default(true).describe('Inject relevant memories into the system prompt'),
      topK: z.number().int().min(1).max(50).default(5),
      minScore: z.number().min(-1).max(1).default(0.3).describe('Minimum similarity × time decay'),
      halfLifeDays: z.number().min(0).max(36_500).default(30).describe('Time decay half-life; 0 = no decay'),
      tokenBudget: z
        .number()
        .int()
        .min(0)
        .max(100_000)
        .default(1000)
        .describe('Tokens of memories in the system prompt'),
    })
    .prefault({}),
  images: imagesConfigSchema,
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

function historyOf(v: unknown): ChatMessage[] {
  if (v === undefined || v === null || v === '') return [];
  let value = v;
  if (typeof v === 'string') {
    try {
      value = JSON.parse(v);
    } catch {
      throw new PaiError('INVALID_CONFIG', 'history must be a list of { role, content } messages', {
        path: 'config.history',
      });
    }
  }
  const parsed = z.array(historyMessage).max(1000).safeParse(value);
  if (!parsed.success)
    throw new PaiError('INVALID_CONFIG', `history: ${parsed.error.issues[0].message}`, { path: 'config.history' });
  return parsed.data;
}

function skillNameOf(args: string): string | undefined {
  try {
    const name = (JSON.parse(args) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The node's skills: their names and descriptions for the prompt, and the tools that load them. */
async function skillsFor(
  services: AgentServices,
  runId: string,
  names: string[],
): Promise<{ block: string; tools: AgentTool[]; warnings: string[]; allowed: string[] }> {
  if (!names.length) return { block: '', tools: [], warnings: [], allowed: [] };
  if (!services.skills)
    return {
      block: '',
      tools: [],
      warnings: ['skills are selected but this deployment has no skills source'],
      allowed: [],
    };
  const workspaceId = (await services.workspaceOf?.(runId).catch(() => undefined)) ?? DEFAULT_WORKSPACE_ID;
  const known = new Map((await services.skills.list(workspaceId)).map((s) => [s.name, s] as [string, SkillSummary]));
  const allowed = names.map((n) => known.get(n)).filter((s): s is SkillSummary => !!s);
  const missing = names.filter((n) => !known.has(n));
  return {
    block: allowed.length ? skillsPromptBlock(allowed) : '',
    tools: allowed.length ? skillTools(services.skills, workspaceId, allowed) : [],
    warnings: missing.length ? [`skills not available here: ${missing.join(', ')}`] : [],
    allowed: allowed.map((s) => s.name),
  };
}

export const agentNode = defineNode<AgentConfig>({
  type: 'agent',
  version: 1,
  label: 'Agent',
  category: 'ai',
  description:
    'A tool-using agent (ReAct on native function calling): built-in ' +
    'tools, workflows and MCP servers as tools, long-term memory.',
  configSchema: agentConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    { path: 'text', description: "The agent's final answer" },
    { path: 'rounds', description: 'How many model rounds it took' },
    { path: 'toolCalls', description: 'The tools it called, with arguments and results' },
    { path: 'model', description: 'The model that answered' },
    { path: 'provider', description: 'The provider that answered' },
    { path: 'providerLabel', description: 'The provider as the settings name it' },
    { path: 'finishReason', description: 'Why the last reply ended' },
    { path: 'usage', description: 'Tokens and cost of all rounds' },
    { path: 'memoriesRecalled', description: 'How many long-term memories it recalled' },
    { path: 'compactions', description: 'How often the conversation was compacted' },
    { path: 'skillsLoaded', description: 'The skills it loaded' },
  ],
  sideEffects: true,
  acceptAnswer: acceptApproval,
  async execute(ctx) {
    const c = ctx.config;
    const services = ctx.agent ?? {};
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    // A provider's error may quote the key it was given: it is scrubbed before the error is stored.
    try {
      const task = agentTask(c.task);
      const skills = await skillsFor(services, ctx.runId, c.skills);
      const { tools, memory, toolContext, warnings } = await assembleTools(ctx, {
        // Skills bring their own tools: selected with the skills, not in "tools".
        tools: skills.tools.length ? [...c.tools, ...skills.tools.map((t) => t.name)] : c.tools,
        extraTools: skills.tools,
        workflowTools: c.workflowTools,
        knowledgeBaseIds: c.knowledgeBaseIds,
        memory: c.memory,
      });
      warnings.push(...skills.warnings);
      if (warnings.length) ctx.emit('node.progress', { warnings });

      let system = asText(c.systemPrompt);
      if (skills.block) system = system ? `${system}\n\n${skills.block}` : skills.block;
      let recalled: RecalledMemory[] = [];
      if (memory && c.memory.autoRecall && c.memory.tokenBudget > 0) {
        try {
          const block = memoryPromptBlock(await memory.recall(task, { topK: c.memory.topK }), c.memory.tokenBudget);
          recalled = block.used;
          if (block.text) system = system ? `${system}\n\n${block.text}` : block.text;
          ctx.emit(
            'retrieval.hits',
            {
              source: 'memory',
              title: 'memory recall',
              hits: recalled.map((m) => ({
                id: m.id,
                score: Number(m.score.toFixed(4)),
                scope: m.scope,
                content: m.content.slice(0, 300),
              })),
            },
            { spanId: randomUUID().replace(/-/g, '').slice(0, 16), parentSpanId: ctx.spanId },
          );
        } catch (err) {
          ctx.emit('node.progress', {
            warnings: [`memory recall failed: ${err instanceof Error ? err.message : String(err)}`],
          });
        }
      }

      const messages: ChatMessage[] = [];
      if (system) messages.push({ role: 'system', content: system });
      // Vision: the task's images go with it as image_url parts (engine/media/image-inputs.ts).
      const images = await imageInputs(ctx, c.images);
      messages.push(...historyOf(c.history), { role: 'user', content: task, ...(images.length ? { images } : {}) });

      const chain = new ModelChain(provider, [c.model, ...c.fallbackModels], {
        maxRetries: c.maxRetries,
        onSwitch: (s) => ctx.emit('node.progress', { fallback: s }),
      });
      const result = await runAgent({
        chain,
        messages,
        tools,
        toolContext,
        limits: c.limits,
        temperature: c.temperature,
        maxTokens: c.maxTokens,
        stream: c.stream,
        signal: ctx.signal,
        emit: ctx.emit,
        nodeSpanId: ctx.spanId,
        progress: { checkpoint: ctx.checkpoint, toolApproval: c.toolApproval },
      });
      return {
        output: {
          text: result.text,
          rounds: result.rounds,
          toolCalls: result.toolCalls,
          model: result.model,
          provider: result.provider,
          providerLabel: provider.label,
          finishReason: result.finishReason,
          usage: result.usage,
          memoriesRecalled: recalled.length,
          compactions: result.compactions,
          skillsLoaded: [
            ...new Set(
              result.messages.flatMap((m) =>
                m.role === 'assistant'
                  ? (m.toolCalls ?? []).filter((t) => t.name === 'load_skill').map((t) => skillNameOf(t.arguments))
                  : [],
              ),
            ),
          ].filter((n): n is string => !!n && skills.allowed.includes(n)),
        },
        usage: result.usage,
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
