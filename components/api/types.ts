/**
 * Shapes of the HTTP API as the browser sees them (see shared/ARCHITECTURE.md). Engine types are reused where they are
 * plain data.
 */
import type { EngineChoice, Graph, GraphEdge, GraphNode } from '@/engine/graph/schema';
import type { TraceEvent, TraceEventType } from '@/engine/events/types';

export type { EngineChoice, Graph, GraphEdge, GraphNode, TraceEvent, TraceEventType };
export { TRACE_EVENT_TYPES } from '@/engine/events/types';

export type RunStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted';
export type NodeStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled' | 'waiting';

export interface ErrorJson {
  code: string;
  message: string;
  path?: string;
  details?: unknown;
}

/** A JSON Schema as `z.toJSONSchema` emits it; only the keywords the form generator reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  /** The field's label in the request's language (GET /api/node-types, lib/i18n/node-catalogue.ts). */
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
}

export interface PortSpec {
  id: string;
  label: string;
}

export type NodeCategory = 'flow' | 'ai' | 'data' | 'integration' | 'logic';

export interface ListedOutputs {
  list: string;
  label: string;
  fallback: string;
}

export interface NodeTypeInfo {
  type: string;
  version: number;
  label: string;
  category: NodeCategory | string;
  description: string;
  sideEffects: boolean;
  configSchema: JsonSchema;
  inputs: PortSpec[];
  outputs: PortSpec[];
  /** Outputs depend on config: the condition node's handles are its branch ids plus "else". */
  dynamicOutputs: boolean;
  /**
   * Where those outputs are in the config: one handle per item of `config[list]` (its `id`, labelled by its `label`
   * field), then `fallback`. Absent with dynamicOutputs: the Condition node's shape (branches, label, else).
   */
  outputsFrom?: ListedOutputs;
  /** The fields of the node's output (`{{<id>.output.<path>}}`), for the `{{` autocomplete. */
  outputFields?: Array<{ path: string; description: string }>;
}

export interface Problem {
  code: string;
  message: string;
  path: string;
  nodeIds?: string[];
  /** UNKNOWN_KEY: the key, and the known key it was probably meant to be; NO_END_ON_PATH: the branch going nowhere. */
  details?: { key?: string; suggestion?: string; branch?: string };
}

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  engine: EngineChoice;
  revision: number;
  nodeCount: number;
  createdAt: string;
  updatedAt: string;
  /** The latest run (single-node test runs do not count); null before the first. */
  lastRun: {
    id: string;
    status: RunStatus;
    createdAt: string;
    startedAt: string | null;
    finishedAt: string | null;
  } | null;
}

export interface Workflow {
  id: string;
  name: string;
  description: string;
  engine: EngineChoice;
  revision: number;
  graph: Graph;
  createdAt: string;
  updatedAt: string;
  problems?: Problem[];
  /** What runs but may not do what is meant: a path that reaches no End node (NO_END_ON_PATH). */
  warnings?: Problem[];
}

export interface RunNodeView {
  nodeId: string;
  type: string;
  label: string | null;
  status: NodeStatus;
  attempt: number;
  input: unknown;
  output: unknown;
  error: ErrorJson | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  /** `demo`: the offline demo model answered this node, not a real model. */
  usage: { inputTokens?: number; outputTokens?: number; cachedTokens?: number; demo?: boolean } | null;
}

export interface RunView {
  id: string;
  workflowId: string;
  versionId: string | null;
  engine: string;
  status: RunStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: ErrorJson | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** USD, the sum of the nodes' costs; null when a node's price is unknown. */
  costUsd?: number | null;
  usage: { inputTokens: number; outputTokens: number; costUsd?: number | null; demo?: boolean };
  /** The offline demo model answered some node: not a real model's work. */
  demo?: boolean;
  nodes: RunNodeView[];
}

export interface RunSummary {
  id: string;
  workflowId: string;
  versionId: string | null;
  engine: string;
  status: RunStatus;
  error: ErrorJson | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface ValidationResult {
  ok: boolean;
  engine: string;
  errors: Problem[];
  warnings?: Problem[];
}
