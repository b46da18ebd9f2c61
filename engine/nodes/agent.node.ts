/**
 * The Agent node: assembles what the agent may use (built-ins, memory, knowledge, workflows and MCP tools, narrowed
 * to the node's selection), recalls long-term memories into the system prompt, and runs the ReAct harness
 * (engine/agent/run-agent.ts) on the node's model chain. Missing services turn tools off with a warning; they never
 * fail the node.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { createMemoryHandle, memoryPromptBlock } from '../agent/memory/memory';
import { ModelChain } from '../agent/model-chain';
import { runAgent } from '../agent/run-agent';
import { ToolRegistry } from '../agent/tool-registry';
import { CORE_TOOLS, MEMORY_TOOLS, knowledgeSearchTool } from '../agent/tools/builtin-tools';
import { workflowTools } from '../agent/tools/workflow-tools';
import type { AgentTool, MemoryHandle, MemoryScope, RecalledMemory } from '../agent/types';
import { PaiError } from '../errors';
import type { ChatMessage } from '../llm/types';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from './provider-settings';
import { defineNode } from './define';

const historyMessage = z.object({ role: z.enum(['user', 'assistant']), content: z.string() });

export const agentConfigSchema = z.object({
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
  workflowTools: z
    .array(
      z.object({
        workflowId: z.string().min(1),
        name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ or -, at most 40'),
        description: z.string().max(1000).optional(),
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
    .object({
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
    .object({
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
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

const asText = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

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

/** Servers a selection needs: `mcp__<server>__…`, or every server for `mcp__*`. Server names contain no "__". */
function mcpServersFor(selection: string[]): string[] | 'all' | null {
  const out = new Set<string>();
  for (const s of selection) {
    if (!s.startsWith('mcp__')) continue;
    const rest = s.slice(5);
    const i = rest.indexOf('__');
    if (i <= 0) return 'all';
    out.add(rest.slice(0, i));
  }
  return out.size ? [...out] : null;
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
  sideEffects: true,
  async execute(ctx) {
    const c = ctx.config;
    const services = ctx.agent ?? {};
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    // A provider's error may quote the key it was given: it is scrubbed before the error is stored.
    try {
      const task = asText(c.task);
      if (!task.trim())
        throw new PaiError('INVALID_CONFIG', 'the task is empty after resolving its references', {
          path: 'config.task',
        });
      const warnings: string[] = [];

      // Long-term memory: saves go to the configured scope; recall reads this workflow's and global memories.
      let memory: MemoryHandle | undefined;
      if (c.memory.enabled && services.memory && services.embedder) {
        const workflowId = await services.workflowOf?.(ctx.runId).catch(() => undefined);
        const workspaceId = await services.workspaceOf?.(ctx.runId).catch(() => undefined);
        if (c.memory.scope === 'workflow' && !workflowId) {
          warnings.push("memory: the run's workflow is unknown, so workflow-scoped memory is off");
        } else {
          const global: MemoryScope = { kind: 'global', workspaceId };
          const own: MemoryScope | undefined = workflowId ? { kind: 'workflow', workflowId, workspaceId } : undefined;
          memory = createMemoryHandle({
            store: services.memory,
            embedder: services.embedder,
            saveScope: c.memory.scope === 'global' ? global : own!,
            recallScopes: own ? [own, global] : [global],
            recall: { topK: c.memory.topK, minScore: c.memory.minScore, halfLifeDays: c.memory.halfLifeDays },
          });
        }
      }

      // The tools this node may use: what exists here, narrowed by the node's selection (= the allowlist).
      const registry = new ToolRegistry().registerAll(CORE_TOOLS);
      if (memory) registry.registerAll(MEMORY_TOOLS);
      const knowledge = ctx.knowledge;
      if (knowledge && c.knowledgeBaseIds.length) registry.register(knowledgeSearchTool(c.knowledgeBaseIds));
      const addAll = (tools: Iterable<AgentTool>, from: string) => {
        for (const t of tools) {
          if (registry.get(t.name))
            warnings.push(`${from} tool "${t.name}" clashes with an existing tool and was skipped`);
          else {
            try {
              registry.register(t);
            } catch (err) {
              warnings.push(`${from} tool skipped: ${(err as Error).message}`);
            }
          }
        }
      };
      addAll(services.tools ?? [], 'app');
      if (c.workflowTools.length) {
        if (services.workflows) addAll(await workflowTools(c.workflowTools, services.workflows, ctx.runId), 'workflow');
        else warnings.push('workflow tools are configured but this deployment cannot run workflows as tools');
      }
      const mcpWanted = mcpServersFor(c.tools);
      if (mcpWanted && services.mcp) {
        const { tools, errors } = await services.mcp.listTools({
          servers: mcpWanted === 'all' ? undefined : mcpWanted,
          signal: ctx.signal,
        });
        addAll(tools, 'MCP');
        for (const e of errors) warnings.push(`MCP server "${e.server}": ${e.message}`);
      } else if (mcpWanted) {
        warnings.push('MCP tools are selected but no MCP servers are configured (MCP_SERVERS)');
      }
      const { tools, missing } = registry.select(c.tools);
      if (missing.length) warnings.push(`selected tools not available here: ${missing.join(', ')}`);
      if (warnings.length) ctx.emit('node.progress', { warnings });

      let system = asText(c.systemPrompt);
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
      messages.push(...historyOf(c.history), { role: 'user', content: task });

      const chain = new ModelChain(provider, [c.model, ...c.fallbackModels], {
        maxRetries: c.maxRetries,
        onSwitch: (s) => ctx.emit('node.progress', { fallback: s }),
      });
      const result = await runAgent({
        chain,
        messages,
        tools,
        toolContext: {
          fetch: ctx.fetch,
          runId: ctx.runId,
          nodeId: ctx.nodeId,
          idempotencyKey: ctx.idempotencyKey,
          memory,
          workflows: services.workflows,
          knowledge,
        },
        limits: c.limits,
        temperature: c.temperature,
        maxTokens: c.maxTokens,
        stream: c.stream,
        signal: ctx.signal,
        emit: ctx.emit,
        nodeSpanId: ctx.spanId,
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
        },
        usage: result.usage,
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
