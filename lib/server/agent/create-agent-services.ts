/**
 * Wires the Agent node's services from the environment: long-term memory in the app database (agent_memories),
 * embedded by the knowledge layer's embedder (MEMORY_EMBEDDING_MODEL, default the offline "use-lite" — fixed so that
 * adding an API key later does not hide memories embedded by another model), MCP servers from MCP_SERVERS
 * (JSON: [{ name, command, args?, env? } | { name, url, headers? }], started lazily, closed with the app), the
 * run → workflow lookup, and workflows-as-tools over the RunManager (attached once it exists).
 */
import { fromKnowledgeEmbedder } from '@/engine/agent/memory/knowledge-embedder-adapter';
import { McpManager, parseMcpServers } from '@/engine/agent/mcp/mcp-manager';
import type { AgentServices, McpToolSource } from '@/engine/node-kit/agent-services';
import { createWorkflowRunner } from '@/engine/runtime/workflow-runner';
import { createEmbedderResolver } from '@/engine/knowledge/embedders/resolve-embedder';
import { USE_LITE_MODEL } from '@/engine/knowledge/embedders/use-lite-embedder';
import type { RunManager } from '@/engine/runtime/run-manager';
import type { Stores } from '@/engine/store/app/stores';
import { settings } from '@/engine/config/settings';
import { parseAllowlist } from '@/engine/net/ssrf-guard';
import type { AppConfig } from '../config';

export interface AgentWiring {
  services: AgentServices;
  /** Workflows as tools need the RunManager, which is built after the services. */
  attach(runs: RunManager): void;
  close(): Promise<void>;
}

export function createAgentServices(
  config: AppConfig,
  stores: Pick<Stores, 'runs' | 'memory'>,
  s: { MCP_SERVERS?: string; MEMORY_EMBEDDING_MODEL?: string } = settings(),
): AgentWiring {
  const store = stores.runs;
  const embedders = createEmbedderResolver({
    OPENAI_API_KEY: config.openaiApiKey,
    OPENAI_BASE_URL: config.openaiBaseUrl,
  });
  // A bad MCP_SERVERS must not stop the app (a failed start is retried per request): agents that select MCP tools
  // get the configuration error as a warning instead.
  let mcp: McpToolSource | undefined;
  try {
    const servers = parseMcpServers(s.MCP_SERVERS);
    if (servers.length) mcp = new McpManager(servers, { allowlist: parseAllowlist(config.httpAllowlist) });
  } catch (e) {
    const message = (e as Error).message;
    console.error(`[paiflow] ${message}`);
    mcp = {
      listTools: async () => ({ tools: [], errors: [{ server: 'MCP_SERVERS', message }] }),
      close: async () => {},
    };
  }
  const services: AgentServices = {
    mcp,
    workflowOf: async (runId) => (await store.getRun(runId))?.workflowId,
    workspaceOf: async (runId) => (await store.workspaceOfRun(runId)) ?? undefined,
  };
  try {
    services.embedder = fromKnowledgeEmbedder(embedders(s.MEMORY_EMBEDDING_MODEL?.trim() || USE_LITE_MODEL));
    services.memory = stores.memory;
  } catch (e) {
    console.error(`[paiflow] long-term agent memory is off: ${(e as Error).message}`);
  }
  return {
    services,
    attach(runs) {
      services.workflows = createWorkflowRunner({ runs, workflows: store, store });
    },
    close: async () => {
      await mcp?.close();
    },
  };
}
