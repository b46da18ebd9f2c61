/**
 * The agent's contracts: tools, the services an Agent node needs beyond NodeContext (memory, embedder, MCP,
 * workflows-as-tools), and the tiny Embedder interface memory recall uses (any implementation fits).
 */
import type { ChildVersion } from '../graph/workflow-calls';
import type { KnowledgeService } from '../knowledge/types';

export type { ChildVersion };
import type { GuardedFetch } from '../net/ssrf-guard';

/** Text → vectors. `id` names the model: vectors of different embedders are never compared. */
export interface Embedder {
  readonly dimension: number;
  readonly id?: string;
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * `global`: every workflow of one workspace (default: the default workspace); `workflow`: one workflow. Memories
 * never cross workspaces.
 */
export type MemoryScope =
  { kind: 'global'; workspaceId?: string } | { kind: 'workflow'; workflowId: string; workspaceId?: string };

export interface MemoryRecord {
  id: string;
  scope: 'global' | 'workflow';
  workflowId: string | null;
  content: string;
  embedding: number[];
  embedderId: string;
  createdAt: string;
  updatedAt: string;
}

/** Long-term memory persistence. Content is de-duplicated per scope (saving it again only bumps `updatedAt`). */
export interface MemoryStore {
  save(entry: {
    scope: MemoryScope;
    content: string;
    embedding: number[];
    embedderId: string;
  }): Promise<{ record: MemoryRecord; created: boolean }>;
  /** Recall candidates: memories in any of `scopes` embedded by `embedderId`, most recently updated first. */
  candidates(scopes: MemoryScope[], embedderId: string, limit: number): Promise<MemoryRecord[]>;
}

export interface WorkflowRunResult {
  runId: string;
  status: string;
  outputs: Record<string, unknown> | null;
  error?: { code: string; message: string } | null;
}

/** Runs another workflow to completion (start + wait + outputs); lib/server wires it to the RunManager. */
export interface WorkflowRunner {
  run(
    workflowId: string,
    inputs: Record<string, unknown>,
    opts: {
      signal: AbortSignal;
      parentRunId: string;
      version?: ChildVersion;
      parentNodeId?: string;
      /** Called once the child run exists (before it finishes): its id and the version it runs. */
      onStarted?(child: { runId: string; version: number | 'draft' }): void;
    },
  ): Promise<WorkflowRunResult>;
  /**
   * Continues a child run started by an earlier execution of the calling node (a resume or restart of the parent):
   * reports it when it succeeded, resumes it when it failed, waits while it is active; null when it is gone.
   */
  continue?(runId: string, opts: { signal: AbortSignal; parentRunId: string }): Promise<WorkflowRunResult | null>;
  /** Name, description and a JSON Schema of the start node's inputs, for the tool's schema; null when unknown. */
  describe?(
    workflowId: string,
    opts?: { parentRunId?: string },
  ): Promise<{ name: string; description: string; inputSchema: Record<string, unknown> } | null>;
}

/** What a tool sees while it runs. `signal` fires on cancel, node timeout, tool timeout and batch timeout. */
export interface ToolContext {
  signal: AbortSignal;
  fetch: GuardedFetch;
  runId: string;
  nodeId: string;
  /**
   * In a tool's execute(): this call's operation, `runId:nodeId:round:callIndex` (the same on every retry, resume
   * and restart): pass it to effects so the receiver can deduplicate.
   */
  idempotencyKey: string;
  /** The model's id for this tool call (unique within the run's conversation). */
  callId: string;
  /** Deadline of this call in ms, for tools that pass a timeout on (HTTP). */
  timeoutMs: number;
  memory?: MemoryHandle;
  workflows?: WorkflowRunner;
  knowledge?: KnowledgeService;
}

/** What a node gives every tool call of its agents; the harness adds the call's own signal, deadline and id. */
export type AgentToolContext = Omit<ToolContext, 'signal' | 'timeoutMs' | 'callId'>;

/** Memory bound to the node's scope and embedder; what memory_save / memory_recall and auto-recall use. */
export interface MemoryHandle {
  save(content: string): Promise<{ id: string; created: boolean }>;
  recall(query: string, opts?: { topK?: number }): Promise<RecalledMemory[]>;
}

export interface RecalledMemory {
  id: string;
  content: string;
  score: number;
  similarity: number;
  scope: 'global' | 'workflow';
  updatedAt: string;
}

export interface AgentTool {
  /** ^[A-Za-z0-9_-]{1,64}$ (what OpenAI-compatible APIs accept). */
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Returns text or a JSON-able value for the model. Throw to fail; ToolPolicyError reads as "policy denied". */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

/** A source of MCP tools (the McpManager); tools are named mcp__<server>__<tool>. */
export interface McpToolSource {
  /** Connects lazily; a server that fails is reported in `errors` and contributes no tools (no throw). */
  listTools(opts?: {
    servers?: string[];
    signal?: AbortSignal;
  }): Promise<{ tools: AgentTool[]; errors: { server: string; message: string }[] }>;
  close(): Promise<void>;
}

export interface SkillSummary {
  name: string;
  description: string;
  /** Where it comes from: SKILLS_DIR (`dir`) or an upload of the workspace (`workspace`). */
  source: 'dir' | 'workspace';
}

/**
 * Agent skills (a folder with SKILL.md: YAML front matter `name`, `description`; a Markdown body; optional files),
 * from SKILLS_DIR and from a workspace's uploads. A workspace upload with the same name as a SKILLS_DIR skill wins.
 */
export interface SkillSource {
  list(workspaceId: string): Promise<SkillSummary[]>;
  /** The SKILL.md body without its front matter; null when the workspace has no such skill. */
  body(workspaceId: string, name: string): Promise<string | null>;
  /** One extra file of a skill as text, by its path inside the skill; null when missing; throws on a path escape. */
  readFile(workspaceId: string, name: string, path: string): Promise<string | null>;
}

export interface AgentServices {
  /** Agent skills (load_skill / read_skill_file). Absent → an agent's `skills` are reported as unavailable. */
  skills?: SkillSource;
  memory?: MemoryStore;
  embedder?: Embedder;
  mcp?: McpToolSource;
  /** Extra app-level tools, offered like the built-ins (a node still has to select them). */
  tools?: AgentTool[];
  workflows?: WorkflowRunner;
  /** The workflow a run belongs to (memory scope "workflow"). */
  workflowOf?(runId: string): Promise<string | undefined>;
  /** The workspace a run belongs to (memory scope "global" is the workspace's). */
  workspaceOf?(runId: string): Promise<string | undefined>;
}

/** The version a child run executes: a version number, or the draft. */
export type ChildVersionLabel = number | 'draft';

/** What `run` accepts beyond the WorkflowRunner contract: `onStarted` fires once the child run exists. */
export type ChildRunOptions = Parameters<WorkflowRunner['run']>[2] & {
  onStarted?(child: { runId: string; version: ChildVersionLabel }): void;
};

export type ChildRunResult = WorkflowRunResult & { version?: ChildVersionLabel };
