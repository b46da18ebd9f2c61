import type { z } from 'zod';
import type { AgentServices } from './agent-services';
import type { NodeArtifacts } from '../artifacts/types';
import type { CredentialResolver } from '../credentials/types';
import type { TraceEventType } from '../events/types';
import type { KnowledgeService } from '../knowledge/types';
import type { LlmResolver, Usage } from '../llm/types';
import type { LoopBody } from './loop-body';
import type { GuardedFetch } from '../net/ssrf-guard';
import type { TemplateScope } from '../template/resolve';
import type { ConversationVariable } from '../template/conversation-variables';

/** A handle on a node: inputs are targets, outputs are sources (condition branches are outputs). */
export interface PortSpec {
  id: string;
  label: string;
}

/** A field of a node's output that a template can read: `{{<nodeId>.output.<path>}}`. */
export interface OutputField {
  /** Below `output`, as a template writes it: `text`, `hits`, `usage.inputTokens`. */
  path: string;
  description: string;
}

export interface EmitOptions {
  /** Child span id (agent steps, tool calls); defaults to the node's own span. */
  spanId?: string;
  parentSpanId?: string;
}

export interface SecretsReader {
  get(name: string): string | undefined;
  /** Where the secret may be sent (`SECRET_<NAME>_HOSTS`); undefined: nowhere chosen by a workflow. */
  hosts?(name: string): string[] | undefined;
}

/**
 * A node's durable state within one run, beside its snapshot: what a long-running node (an agent's rounds, a
 * multi-agent plan's steps) has finished, so a retry, a resume or a restart after a crash continues where it
 * stopped instead of doing that work again. Saved under the node's operation key (`nodeId`, plus the loop pass),
 * together with the node's trace events so far, in one atomic commit. A checkpoint is only offered back to the same
 * resolved config (what the node was asked to do); it is dropped when the node succeeds.
 */
export interface NodeCheckpoint {
  /** The state saved last, and a person's answer to the node's pause (see NodePause) when one was given. */
  load<T = unknown>(): Promise<{ state: T; answer?: unknown } | undefined>;
  /** Durable before it returns (rejects with StoreWriteError when it could not be stored). Clears the answer. */
  save(state: unknown): Promise<void>;
}

/**
 * Thrown by a node's execute() to pause the run on this node (node and run status `waiting`) until
 * POST /api/runs/:id/answer. Save a checkpoint first: the answer is stored with it, and the node is executed again
 * (its checkpoint.load() returns the answer) when the run continues. `prompt` is what the person is shown: a
 * question (text), or JSON whose `kind` names what is asked, e.g. "tool_approval".
 */
export class NodePause extends Error {
  constructor(readonly prompt: string | ({ kind: string } & Record<string, unknown>)) {
    super(`waiting for a person (${typeof prompt === 'string' ? 'a question' : prompt.kind})`);
    this.name = 'NodePause';
  }
}

/**
 * Everything a node may touch. Nodes never see the database, Redis or HTTP request objects; side effects go
 * through `fetch` (SSRF-guarded) and `llm`, and tracing through `emit`.
 */
export interface NodeContext<C = unknown> {
  runId: string;
  nodeId: string;
  nodeType: string;
  attempt: number;
  /**
   * `runId:nodeId` (plus `:iteration` for loop passes after the first): names the operation, not the attempt, so it
   * is the same on every retry, resume and restart; pass it to side-effecting calls so the receiver can deduplicate.
   */
  idempotencyKey: string;
  /** The node's config with every `{{ref}}` resolved. */
  config: C;
  /** The config as stored (templates unresolved), for nodes that render templates themselves. */
  rawConfig: C;
  scope: TemplateScope;
  signal: AbortSignal;
  spanId: string;
  emit(type: TraceEventType, data: Record<string, unknown>, opts?: EmitOptions): void;
  fetch: GuardedFetch;
  secrets: SecretsReader;
  llm: LlmResolver;
  /** State-graph engine only: how many times this node has run in this run before (loop iterations). */
  iteration: number;
  /**
   * Agent node: long-term memory, embedder, MCP servers, extra tools, workflows as tools. Absent → those tools are off.
   */
  agent?: AgentServices;
  /**
   * Knowledge-base search (knowledge node, agent's knowledge_search tool). Absent → those fail with
   * KNOWLEDGE_UNAVAILABLE.
   */
  knowledge?: KnowledgeService;
  /** Credentials by id (`config.credentialId`), of the run's own workspace. Absent → CREDENTIALS_UNAVAILABLE. */
  credentials?: CredentialResolver;
  /** Files of the run (speech, images): stored as artifacts, read within the run's workspace. Absent → unavailable. */
  artifacts?: NodeArtifacts;
  /** Durable state within the run (see NodeCheckpoint). */
  checkpoint: NodeCheckpoint;
  /**
   * State-graph engine, a loop node running its items in parallel: runs its body for one item
   * (runtime/loop-body-runner.ts).
   */
  loopBody?: LoopBody;
}

export interface ConfigProblem {
  code: string;
  message: string;
  /** Relative to the node's config, e.g. `branches[0].conditions[1].right`. */
  path: string;
}

export interface NodeResult {
  output: unknown;
  usage?: Usage;
  /** For branching nodes: the chosen source handle(s); edges from other handles are not taken. */
  branch?: string | string[];
}

/**
 * What the runtime needs to know about a node type. The engines, the validator and the loop runner ask these, never a
 * type's name, so a new node type with the same needs works without touching them.
 */
export interface NodeCapabilities {
  /** The run's entry: it takes the run's inputs and has no incoming edges. A graph has exactly one. */
  entry?: boolean;
  /** The run's outputs are what its terminal nodes produced. A graph has at least one. */
  terminal?: boolean;
  /**
   * It exists to wait for a person (NodePause): a run can pause on it whatever its config, so it is never pinned,
   * never run on its own, and never in the body of a loop that runs its items in parallel.
   */
  pauses?: boolean;
  /**
   * It runs the nodes behind its `body` handle once per item or pass, around a cycle (so only on the state-graph
   * engine), or, when `parallel(config)` says so, all the items itself (runtime/loop-body-runner.ts).
   * `maxPasses(config)`: its own limit, which raises that of every node on its cycles. Its output's `index` is the
   * last pass it completed.
   */
  iterates?: { maxPasses(config: unknown): number; parallel(config: unknown): boolean };
  /** It starts a run of another workflow (the node context's `workflows`). */
  startsChildRuns?: boolean;
  /**
   * It writes the run's conversation variables (template/conversation-variables.ts): `written(output)` is what it wrote
   * (name → new value), which later nodes read as `{{conversation.<name>}}` and the run stores with its conversation
   * when it succeeds; `check(config, declared)` is the validator's check against the graph's declarations.
   */
  writesConversation?: {
    written(output: unknown): Record<string, unknown> | null;
    check(config: unknown, declared: ConversationVariable[]): ConfigProblem[];
  };
}

export interface NodeDefinition<C = unknown> {
  type: string;
  version: number;
  label: string;
  category: 'flow' | 'ai' | 'data' | 'integration' | 'logic';
  description: string;
  configSchema: z.ZodType<C>;
  inputs: PortSpec[];
  /** Static outputs; `outputsFor(config)` overrides for nodes whose handles depend on config (condition). */
  outputs: PortSpec[];
  outputsFor?(config: C): PortSpec[];
  /**
   * How `outputsFor` reads the config, for the editor (which draws the handles as the config is edited): one handle
   * per item of `config[list]`, its `id` labelled by its `label` field, then the `fallback` handle.
   */
  outputsFrom?: { list: string; label: string; fallback: string };
  /**
   * The fields of the output execute() returns, so the editor's `{{` autocomplete offers what the engine produces,
   * from this one definition (GET /api/node-types `outputFields`). Every node type lists them (a registry test checks
   * it); an output shaped entirely by config or code (start, end, code) lists none, and says why where it is declared.
   */
  outputFields?: OutputField[];
  /** Does this node cause effects outside the run (HTTP calls, writes)? Used for idempotency keys and UI hints. */
  sideEffects?: boolean;
  /**
   * Pure and instant: its output comes from its config and the run's values alone, with no effect outside the run,
   * so running it again after a crash changes nothing. A pure node does not wait for a commit of its own (nor does
   * a node followed only by pure nodes): its snapshot rides with the next node's commit or the run's final commit
   * (run-node.ts persistWithNextIn). It may run while the run's own row is still being inserted.
   */
  pure?: boolean;
  /** What the runtime must know about this type (see NodeCapabilities); none for an ordinary node. */
  capabilities?: NodeCapabilities;
  /** Config keys whose templates must not be resolved before execute (the node renders them itself). */
  rawKeys?: string[];
  /**
   * Config keys that hold no templates at all (a Code node's JavaScript, where `{{` is just code): the validator
   * looks for no refs in them. List them in rawKeys too, so that they are not resolved either.
   */
  literalKeys?: string[];
  /**
   * Save-time checks beyond the schema, on a config the schema accepted (e.g. a written-out regex too complex to
   * run); paths are relative to the config. The validator reports them with their own codes.
   */
  checkConfig?(config: C): ConfigProblem[];
  /**
   * For a node that pauses (NodePause): checks a person's answer to `prompt` before it is stored; returns the value
   * to store (e.g. normalised) or a problem (path relative to `answer`), which the API answers with 400. `config`:
   * the node's config as stored in the graph.
   */
  acceptAnswer?(
    prompt: Record<string, unknown>,
    answer: unknown,
    config: unknown,
  ): { value: unknown } | { problem: ConfigProblem };
  execute(ctx: NodeContext<C>): Promise<NodeResult>;
}

export function defineNode<C>(def: NodeDefinition<C>): NodeDefinition<C> {
  return def;
}
