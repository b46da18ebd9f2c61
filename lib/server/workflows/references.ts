/**
 * Workspace references of a graph, checked when it is saved or validated: knowledge bases, workflows (as tools and
 * as sub-workflow nodes), credentials, agent tools and skills must name something that exists here. An unknown
 * name is a problem with a JSON path, like every other validation problem — never dropped at run time in silence.
 *
 * References are found by key, anywhere in a node's config (`credentialId`, `knowledgeBaseId(s)`, `workflowId`,
 * `tools`, `toolApproval`, `skills`), so a new node type (e.g. multi-agent workers) is covered without a list here.
 * MCP tools are checked against the configured server names only: nothing connects to an MCP server at save time.
 * The same module lists what an agent may select (listAgentTools), so the picker and the check agree on names.
 */
import { KNOWLEDGE_SEARCH_TOOL } from '@/engine/knowledge/knowledge-tool';
import { CORE_TOOLS, MEMORY_TOOLS } from '@/engine/agent/tools/builtin-tools';
import type { AgentServices } from '@/engine/node-kit/agent-services';
import type { Graph } from '@/engine/graph/schema';
import type { Problem } from '@/engine/graph/validate';
import type { App } from '../app-types';

/** Tools an agent offers with its skills; accepted in a selection although they are added automatically. */
export const SKILL_TOOLS = ['load_skill', 'read_skill_file'];

/** Built-in tool names an agent may select (memory and knowledge search included). */
export const BUILTIN_TOOLS: { name: string; description: string }[] = [
  ...[...CORE_TOOLS, ...MEMORY_TOOLS].map((t) => ({ name: t.name, description: t.description })),
  { name: KNOWLEDGE_SEARCH_TOOL, description: "Searches the node's knowledge bases (set them in Knowledge bases)" },
];

type Kind = 'credential' | 'knowledgeBase' | 'workflow' | 'tool' | 'skill';

export interface Reference {
  kind: Kind;
  value: string;
  /** JSON path from the graph: `nodes[3].data.config.tools[1]`. */
  path: string;
  nodeId: string;
  /** For tools: the `workflow__<name>` names the object holding the selection offers (its own workflowTools). */
  workflowToolNames?: string[];
}

/** What the workspace has; a source left out is not checked (e.g. skills when the deployment has none). */
export interface ReferenceSources {
  credentialIds(): Promise<Set<string>>;
  knowledgeBaseIds(): Promise<Set<string>>;
  workflowExists(id: string): Promise<boolean>;
  /** Configured MCP server names; null when unknown (MCP_SERVERS is unreadable) → MCP names are not checked. */
  mcpServers: string[] | null;
  /** App-level tools (AgentServices.tools). */
  appTools: string[];
  skillNames?: () => Promise<Set<string>>;
}

const isTemplate = (s: string) => s.includes('{{');
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function workflowToolNamesOf(obj: Record<string, unknown>): string[] {
  const list = Array.isArray(obj.workflowTools) ? obj.workflowTools : [];
  return list
    .map((w) => (w && typeof w === 'object' ? (w as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === 'string' && n.length > 0)
    .map((n) => `workflow__${n}`);
}

/** Every reference in the graph's node configs, with its path. Pure. */
export function collectReferences(graph: Graph): Reference[] {
  const out: Reference[] = [];
  graph.nodes.forEach((node, i) => {
    const walk = (v: unknown, path: string, nodeWfTools: string[]) => {
      if (Array.isArray(v)) return v.forEach((x, j) => walk(x, `${path}[${j}]`, nodeWfTools));
      if (!v || typeof v !== 'object') return;
      const obj = v as Record<string, unknown>;
      const own = workflowToolNamesOf(obj);
      const wfTools = own.length || Array.isArray(obj.workflowTools) ? own : nodeWfTools;
      for (const [k, x] of Object.entries(obj)) {
        const p = `${path}.${k}`;
        const add = (kind: Kind, value: string, at: string, extra?: Partial<Reference>) => {
          if (value && !isTemplate(value)) out.push({ kind, value, path: at, nodeId: node.id, ...extra });
        };
        if (k === 'credentialId' && typeof x === 'string') add('credential', x, p);
        else if (k === 'knowledgeBaseId' && typeof x === 'string') add('knowledgeBase', x, p);
        else if (k === 'knowledgeBaseIds' && strings(x)) x.forEach((s, j) => add('knowledgeBase', s, `${p}[${j}]`));
        else if (k === 'workflowId' && typeof x === 'string') add('workflow', x, p);
        else if ((k === 'tools' || k === 'toolApproval') && strings(x))
          x.forEach((s, j) => add('tool', s, `${p}[${j}]`, { workflowToolNames: wfTools }));
        else if (k === 'skills' && strings(x)) x.forEach((s, j) => add('skill', s, `${p}[${j}]`));
        else walk(x, p, wfTools);
      }
    };
    walk(node.data?.config ?? {}, `nodes[${i}].data.config`, []);
  });
  return out;
}

/** Why a tool name is unknown, or null when it names a tool this node can have. */
function toolProblem(ref: Reference, src: ReferenceSources): string | null {
  const name = ref.value;
  if (name.endsWith('*')) return null; // a prefix pattern: may match nothing yet, which the run reports as a warning
  if (BUILTIN_TOOLS.some((t) => t.name === name) || SKILL_TOOLS.includes(name) || src.appTools.includes(name))
    return null;
  if (name.startsWith('workflow__')) {
    return ref.workflowToolNames?.includes(name)
      ? null
      : `"${name}" is not one of this node's workflow tools (add it under Workflow tools first)`;
  }
  if (name.startsWith('mcp__')) {
    if (src.mcpServers === null) return null;
    const rest = name.slice('mcp__'.length);
    const cut = rest.indexOf('__');
    const server = cut > 0 ? rest.slice(0, cut) : '';
    if (!server || cut + 2 >= rest.length) return `"${name}" is not an MCP tool name (mcp__<server>__<tool>)`;
    if (src.mcpServers.includes(server)) return null;
    return src.mcpServers.length
      ? `no MCP server named "${server}" is configured (configured: ${src.mcpServers.join(', ')})`
      : `no MCP servers are configured (MCP_SERVERS), so "${name}" cannot be used`;
  }
  return `unknown tool "${name}"`;
}

/** Problems for every reference that names nothing in the workspace (paths relative to the graph). */
export async function checkReferences(graph: Graph, src: ReferenceSources): Promise<Problem[]> {
  const refs = collectReferences(graph);
  if (!refs.length) return [];
  const need = (k: Kind) => refs.some((r) => r.kind === k);
  const [creds, kbs, skills] = await Promise.all([
    need('credential') ? src.credentialIds() : undefined,
    need('knowledgeBase') ? src.knowledgeBaseIds() : undefined,
    need('skill') && src.skillNames ? src.skillNames() : undefined,
  ]);
  const wfIds = [...new Set(refs.filter((r) => r.kind === 'workflow').map((r) => r.value))];
  const wfKnown = new Map(await Promise.all(wfIds.map(async (id) => [id, await src.workflowExists(id)] as const)));

  const problems: Problem[] = [];
  const push = (r: Reference, code: string, message: string) =>
    problems.push({ code, message, path: r.path, nodeIds: [r.nodeId] });
  for (const r of refs) {
    if (r.kind === 'credential' && !creds!.has(r.value))
      push(r, 'UNKNOWN_CREDENTIAL', `no credential "${r.value}" in this workspace`);
    else if (r.kind === 'knowledgeBase' && !kbs!.has(r.value))
      push(r, 'UNKNOWN_KNOWLEDGE_BASE', `no knowledge base "${r.value}" in this workspace`);
    else if (r.kind === 'workflow' && !wfKnown.get(r.value))
      push(r, 'UNKNOWN_WORKFLOW', `no workflow "${r.value}" in this workspace`);
    else if (r.kind === 'skill' && skills && !skills.has(r.value))
      push(r, 'UNKNOWN_SKILL', `no skill "${r.value}" in this workspace`);
    else if (r.kind === 'tool') {
      const why = toolProblem(r, src);
      if (why) push(r, 'UNKNOWN_TOOL', why);
    }
  }
  return problems;
}

/** Configured MCP server names, when the source can tell them without connecting (the McpManager can). */
export function mcpServerNames(agent: AgentServices | undefined): string[] | null {
  const mcp = agent?.mcp as { serverNames?: () => string[] } | undefined;
  if (!mcp) return [];
  return typeof mcp.serverNames === 'function' ? mcp.serverNames() : null;
}

/** The sources of one workspace, from the app's stores and agent services. */
export function referenceSourcesOf(app: App, workspaceId: string): ReferenceSources {
  const agent = app.agent;
  const skills = agent?.skills;
  return {
    credentialIds: async () => new Set((await app.credentials.list(workspaceId)).map((c) => c.id)),
    knowledgeBaseIds: async () =>
      new Set((await app.knowledge.inWorkspace(workspaceId).listKnowledgeBases()).map((kb) => kb.id)),
    workflowExists: async (id) => (await app.store.getWorkflow(id, workspaceId)) !== null,
    mcpServers: mcpServerNames(agent),
    appTools: (agent?.tools ?? []).map((t) => t.name),
    skillNames: skills ? async () => new Set((await skills.list(workspaceId)).map((s) => s.name)) : undefined,
  };
}

export interface AgentToolCatalogue {
  builtin: { name: string; description: string }[];
  mcp: { server: string; tools: { name: string; description: string }[]; error?: string }[];
}

/**
 * The tools an Agent node can select, for the inspector's picker (GET /api/agent-tools): built-ins and app tools,
 * and MCP tools grouped by server. Listing connects to the MCP servers (the app's manager, shared with runs).
 */
export async function listAgentTools(agent: AgentServices | undefined, signal?: AbortSignal) {
  const builtin = [
    ...BUILTIN_TOOLS,
    ...(agent?.tools ?? []).map((t) => ({ name: t.name, description: t.description })),
  ];
  const out: AgentToolCatalogue = { builtin, mcp: [] };
  if (!agent?.mcp) return out;
  const { tools, errors } = await agent.mcp.listTools({ signal });
  const byServer = new Map<string, AgentToolCatalogue['mcp'][number]>();
  const group = (server: string) => {
    let g = byServer.get(server);
    if (!g) byServer.set(server, (g = { server, tools: [] }));
    return g;
  };
  for (const s of mcpServerNames(agent) ?? []) group(s);
  for (const t of tools) {
    const rest = t.name.slice('mcp__'.length);
    group(rest.slice(0, Math.max(0, rest.indexOf('__')))).tools.push({ name: t.name, description: t.description });
  }
  for (const e of errors) group(e.server).error = e.message;
  out.mcp = [...byServer.values()];
  return out;
}
