/**
 * What the inspector's pickers choose from: agent tools (built-ins, MCP tools by server), skills, knowledge bases
 * and workflows of the workspace. Each list is fetched once per page and shared by every picker (a short cache:
 * the inspector re-mounts on each selection, and MCP listing may connect to servers).
 */
import { ApiError, call } from './client';
import type { WorkflowSummary } from './types';

export interface ToolInfo {
  name: string;
  description: string;
}

export interface AgentToolCatalogue {
  builtin: ToolInfo[];
  mcp: { server: string; tools: ToolInfo[]; error?: string }[];
}

export interface SkillInfo {
  name: string;
  description: string;
  source: string;
}

export interface KnowledgeBaseInfo {
  id: string;
  name: string;
}

const TTL_MS = 30_000;
const cache = new Map<string, { at: number; value: Promise<unknown> }>();

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value as Promise<T>;
  const value = load();
  cache.set(key, { at: Date.now(), value });
  value.catch(() => cache.delete(key));
  return value;
}

export const catalogueApi = {
  agentTools: () => cached('tools', () => call<AgentToolCatalogue>('GET', '/api/agent-tools')),
  /** Skills of the workspace; `null` when this server has no skills endpoint (404). */
  skills: () =>
    cached('skills', () =>
      call<SkillInfo[] | { skills: SkillInfo[] }>('GET', '/api/skills').then(
        (r) => (Array.isArray(r) ? r : (r?.skills ?? [])),
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return null;
          throw e;
        },
      ),
    ),
  knowledgeBases: () => cached('kbs', () => call<KnowledgeBaseInfo[]>('GET', '/api/knowledge-bases')),
  workflows: () => cached('workflows', () => call<WorkflowSummary[]>('GET', '/api/workflows')),
  /** Forget the lists (e.g. after creating a knowledge base in another tab). */
  refresh: () => cache.clear(),
};
