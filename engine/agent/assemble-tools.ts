/**
 * What an agent may use, assembled once per node execution: built-ins, long-term memory, knowledge search, app
 * tools, workflows as tools and MCP tools, narrowed to the node's selection (the selection is the allowlist the
 * harness enforces). Missing services turn tools off with a warning; they never fail the node. The Agent node and
 * the multi-agent node's workers share it.
 */
import { createMemoryHandle } from './memory/memory';
import { ToolRegistry } from './tool-registry';
import { CORE_TOOLS, MEMORY_TOOLS, knowledgeSearchTool } from './tools/builtin-tools';
import { workflowTools } from './tools/workflow-tools';
import type { AgentServices, AgentTool, AgentToolContext, MemoryHandle, MemoryScope } from '../node-kit/agent-services';
import type { GuardedFetch } from '../net/ssrf-guard';
import type { KnowledgeService } from '../knowledge/types';

export interface ToolSelection {
  /** Names or `prefix*` patterns (calculator, memory_save, workflow__<name>, mcp__<server>__<tool>, mcp__github__*). */
  tools: string[];
  workflowTools?: { workflowId: string; name: string; description?: string }[];
  knowledgeBaseIds?: string[];
  memory?: {
    enabled: boolean;
    scope: 'workflow' | 'global';
    topK: number;
    minScore: number;
    halfLifeDays: number;
  };
  /** Tools the node adds itself (e.g. load_skill), offered like the built-ins but still subject to the selection. */
  extraTools?: AgentTool[];
}

export interface AssembledTools {
  tools: AgentTool[];
  memory?: MemoryHandle;
  /** What every tool call of the node's agents is given (its run, node, fetch, memory, workflows, knowledge). */
  toolContext: AgentToolContext;
  warnings: string[];
}

/** Servers a selection needs: `mcp__<server>__…`, or every server for `mcp__*`. Server names contain no "__". */
export function mcpServersFor(selection: string[]): string[] | 'all' | null {
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

export async function assembleTools(
  ctx: {
    runId: string;
    nodeId: string;
    idempotencyKey: string;
    signal: AbortSignal;
    fetch: GuardedFetch;
    agent?: AgentServices;
    knowledge?: KnowledgeService;
  },
  sel: ToolSelection,
): Promise<AssembledTools> {
  const services = ctx.agent ?? {};
  const warnings: string[] = [];

  // Long-term memory: saves go to the configured scope; recall reads this workflow's and global memories.
  let memory: MemoryHandle | undefined;
  if (sel.memory?.enabled && services.memory && services.embedder) {
    const workflowId = await services.workflowOf?.(ctx.runId).catch(() => undefined);
    const workspaceId = await services.workspaceOf?.(ctx.runId).catch(() => undefined);
    if (sel.memory.scope === 'workflow' && !workflowId) {
      warnings.push("memory: the run's workflow is unknown, so workflow-scoped memory is off");
    } else {
      const global: MemoryScope = { kind: 'global', workspaceId };
      const own: MemoryScope | undefined = workflowId ? { kind: 'workflow', workflowId, workspaceId } : undefined;
      memory = createMemoryHandle({
        store: services.memory,
        embedder: services.embedder,
        saveScope: sel.memory.scope === 'global' ? global : own!,
        recallScopes: own ? [own, global] : [global],
        recall: { topK: sel.memory.topK, minScore: sel.memory.minScore, halfLifeDays: sel.memory.halfLifeDays },
      });
    }
  }

  const registry = new ToolRegistry().registerAll(CORE_TOOLS);
  if (memory) registry.registerAll(MEMORY_TOOLS);
  const kbs = sel.knowledgeBaseIds ?? [];
  if (ctx.knowledge && kbs.length) registry.register(knowledgeSearchTool(kbs));
  const addAll = (tools: Iterable<AgentTool>, from: string) => {
    for (const t of tools) {
      if (registry.get(t.name)) warnings.push(`${from} tool "${t.name}" clashes with an existing tool and was skipped`);
      else {
        try {
          registry.register(t);
        } catch (err) {
          warnings.push(`${from} tool skipped: ${(err as Error).message}`);
        }
      }
    }
  };
  addAll(sel.extraTools ?? [], 'node');
  addAll(services.tools ?? [], 'app');
  const wfTools = sel.workflowTools ?? [];
  if (wfTools.length) {
    if (services.workflows) addAll(await workflowTools(wfTools, services.workflows, ctx.runId), 'workflow');
    else warnings.push('workflow tools are configured but this deployment cannot run workflows as tools');
  }
  const mcpWanted = mcpServersFor(sel.tools);
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
  const { tools, missing } = registry.select(sel.tools);
  if (missing.length) warnings.push(`selected tools not available here: ${missing.join(', ')}`);
  const toolContext: AgentToolContext = {
    fetch: ctx.fetch,
    runId: ctx.runId,
    nodeId: ctx.nodeId,
    idempotencyKey: ctx.idempotencyKey,
    memory,
    workflows: services.workflows,
    knowledge: ctx.knowledge,
  };
  return { tools, memory, toolContext, warnings };
}
