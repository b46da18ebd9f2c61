/**
 * Conversions between the stored graph (React Flow's own shape plus `data.config`) and the canvas, and the
 * graph rules the editor enforces before the server ever sees an edit: ids, default configs, handles and
 * which connections are allowed.
 */
import type { Edge, Node } from '@xyflow/react';
import type {
  Graph,
  GraphEdge,
  GraphNode,
  JsonSchema,
  ListedOutputs,
  NodeTypeInfo,
  PortSpec,
} from '@/components/api/types';
import { tr } from '@/components/lib/i18n';

export interface NodeData extends Record<string, unknown> {
  label?: string;
  version?: number;
  config: Record<string, unknown>;
  retry?: { maxAttempts?: number; backoffMs?: number; backoffMultiplier?: number };
  timeoutMs?: number;
}

export type FlowNode = Node<NodeData>;
export type FlowEdge = Edge;

/** Keys React Flow adds to nodes/edges at run time; everything else a stored node had is kept as it was. */
const RUNTIME_NODE_KEYS = new Set([
  'selected',
  'dragging',
  'measured',
  'resizing',
  'positionAbsolute',
  'internals',
  'width',
  'height',
]);
const RUNTIME_EDGE_KEYS = new Set([
  'selected',
  'animated',
  'style',
  'className',
  'markerEnd',
  'zIndex',
  'interactionWidth',
  'label',
]);

export function toFlow(graph: Graph): { nodes: FlowNode[]; edges: FlowEdge[] } {
  return {
    nodes: graph.nodes.map(
      (n) =>
        ({
          ...n,
          data: { ...(n.data as NodeData), config: (n.data?.config ?? {}) as Record<string, unknown> },
        }) as FlowNode,
    ),
    edges: (graph.edges ?? []).map(
      (e) => ({ ...e, sourceHandle: e.sourceHandle ?? null, targetHandle: e.targetHandle ?? null }) as FlowEdge,
    ),
  };
}

/** The graph as stored: React Flow's runtime fields stripped, null handles omitted. */
/** The stored graph of the canvas; `conversationVariables`, the workflow's, kept when there are any. */
export function toGraph(
  nodes: FlowNode[],
  edges: FlowEdge[],
  conversationVariables?: Graph['conversationVariables'],
): Graph {
  return {
    ...(conversationVariables?.length ? { conversationVariables } : {}),
    nodes: nodes.map((n) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(n)) if (!RUNTIME_NODE_KEYS.has(k) && v !== undefined) out[k] = v;
      out.position = { x: Math.round(n.position.x * 100) / 100, y: Math.round(n.position.y * 100) / 100 };
      return out as GraphNode;
    }),
    edges: edges.map((e) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e))
        if (!RUNTIME_EDGE_KEYS.has(k) && v !== undefined && v !== null) out[k] = v;
      return out as GraphEdge;
    }),
  };
}

/** Readable, template-friendly ids: `start`, `end`, `llm_1`, `template_2`. */
export function newNodeId(type: string, taken: Set<string>): string {
  const base = type.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '') || 'node';
  if ((type === 'start' || type === 'end') && !taken.has(base)) return base;
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!taken.has(id)) return id;
  }
}

export function newEdgeId(taken: Set<string>): string {
  for (;;) {
    const id = `e_${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}

/** A value that satisfies the schema's shape (defaults first; required strings start empty so the form shows them). */
export function defaultForSchema(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [k, p] of Object.entries(schema.properties ?? {})) {
        if (required.has(k) || p.default !== undefined) out[k] = defaultForSchema(p);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => defaultForSchema(schema.items));
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** Starting configs that are more useful than the bare schema defaults. */
const STARTER_CONFIG: Record<string, () => Record<string, unknown>> = {
  condition: () => ({
    branches: [
      // i18n-exempt: the first branch's id and default label, data the condition node routes by
      { id: 'if', label: 'if', logic: 'and', conditions: [{ left: '', op: 'eq', right: '', valueType: 'auto' }] },
    ],
  }),
  question_classifier: () => ({
    classes: [
      // i18n-exempt: ids and names of two classes to rename, data the classifier routes by
      { id: 'class1', name: 'class1' },
      { id: 'class2', name: 'class2' },
    ],
  }),
  parameter_extractor: () => ({
    // i18n-exempt: a parameter's name to rename, data (the output field)
    parameters: [{ name: 'param1', type: 'string', description: '', required: true }],
  }),
};

export function newNodeData(t: NodeTypeInfo): NodeData {
  const config = {
    ...(defaultForSchema(t.configSchema) as Record<string, unknown>),
    ...(STARTER_CONFIG[t.type]?.() ?? {}),
  };
  return { label: t.label, version: t.version, config };
}

/** Where a node type with dynamic outputs lists them in its config; the Condition node's shape when unsaid. */
export function listedOutputs(t: NodeTypeInfo | undefined): ListedOutputs | undefined {
  if (!t?.dynamicOutputs) return undefined;
  return t.outputsFrom ?? { list: 'branches', label: 'label', fallback: 'else' }; // i18n-exempt: config keys
}

/**
 * Source handles of a node: for dynamic outputs, one per item of the config's list (a condition's branches, a
 * classifier's classes) plus the fallback ("else", "other"); else the type's own.
 */
export function outputsOf(t: NodeTypeInfo | undefined, config: Record<string, unknown> | undefined): PortSpec[] {
  if (!t) return [{ id: 'out', label: 'out' }]; // i18n-exempt: handle id
  const from = listedOutputs(t);
  if (from) {
    const raw = config?.[from.list];
    const items = Array.isArray(raw) ? (raw as Array<Record<string, unknown> | null>) : [];
    return [
      ...items
        .filter((b) => typeof b?.id === 'string' && b.id)
        .map((b) => ({ id: String(b!.id), label: String(b![from.label] || b!.id) })),
      // The catalogue's fallback handle carries its label in the UI's language; the id is what the engine routes by.
      { id: from.fallback, label: t.outputs.find((o) => o.id === from.fallback)?.label ?? from.fallback },
    ];
  }
  return t.outputs;
}

export interface ConnectionLike {
  source: string | null;
  target: string | null;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/**
 * Why a connection is refused, or null when it is fine. Mirrors the server's edge rules so the reason shows at once.
 */
export function connectionProblem(
  c: ConnectionLike,
  nodes: FlowNode[],
  edges: FlowEdge[],
  types: Map<string, NodeTypeInfo>,
): string | null {
  if (!c.source || !c.target) return tr('editor.connection.handles');
  const src = nodes.find((n) => n.id === c.source);
  const tgt = nodes.find((n) => n.id === c.target);
  if (!src || !tgt) return tr('editor.connection.nodeGone');
  if (c.source === c.target) return tr('editor.connection.self');
  if (tgt.type === 'start') return tr('editor.connection.intoStart');
  const srcType = types.get(src.type ?? '');
  if (src.type === 'end' || (srcType && outputsOf(srcType, src.data.config).length === 0))
    return tr('editor.connection.noOutputs', { type: srcType?.label ?? src.type ?? '' });
  const tgtType = types.get(tgt.type ?? '');
  if (tgtType && tgtType.inputs.length === 0) return tr('editor.connection.noInputs', { type: tgtType.label });
  const handle = normaliseSourceHandle(srcType, c.sourceHandle ?? null);
  if (edges.some((e) => e.source === c.source && e.target === c.target && (e.sourceHandle ?? null) === handle)) {
    return tr('editor.connection.duplicate', { from: src.data.label || src.id, to: tgt.data.label || tgt.id });
  }
  return null;
}

/** Nodes with more than one output (branches, loop body/done) route by handle; the rest have one output. */
export function isBranching(t: NodeTypeInfo | undefined): boolean {
  return !!t && (t.dynamicOutputs || t.outputs.length > 1);
}

/** Only branching nodes store a source handle; single-output nodes keep edges in the seeded example's shape. */
export function normaliseSourceHandle(t: NodeTypeInfo | undefined, handle: string | null): string | null {
  return isBranching(t) ? handle : null;
}

/** Nodes upstream of `id` (for template autocomplete), nearest first. */
export function upstreamOf(id: string, edges: FlowEdge[]): string[] {
  const incoming = new Map<string, string[]>();
  for (const e of edges) incoming.set(e.target, [...(incoming.get(e.target) ?? []), e.source]);
  const seen = new Set<string>();
  const order: string[] = [];
  let frontier = [id];
  while (frontier.length) {
    const next: string[] = [];
    for (const cur of frontier)
      for (const s of incoming.get(cur) ?? [])
        if (!seen.has(s) && s !== id) {
          seen.add(s);
          order.push(s);
          next.push(s);
        }
    frontier = next;
  }
  return order;
}

/** Rewrites `{{oldId.` references inside template strings, for pasted copies that keep pointing at each other. */
export function remapRefs(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    return value.replace(/\{\{[^{}]*\}\}/g, (tpl) =>
      tpl.replace(/(^|[{|\s])([A-Za-z][A-Za-z0-9_-]*)(?=\.)/g, (m, pre: string, id: string) =>
        ids.has(id) ? `${pre}${ids.get(id)}` : m,
      ),
    );
  }
  if (Array.isArray(value)) return value.map((v) => remapRefs(v, ids));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapRefs(v, ids)]));
  return value;
}

/** JSON path of a config field, in the validator's notation: `data.config.branches[0].id`. */
export function fieldPath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

export function setIn<T>(obj: T, path: ReadonlyArray<string | number>, value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const base = (obj ?? (typeof head === 'number' ? [] : {})) as Record<string | number, unknown>;
  const copy = (Array.isArray(base) ? [...base] : { ...base }) as Record<string | number, unknown>;
  const next = setIn(base[head], rest, value);
  if (next === undefined && !Array.isArray(copy)) delete copy[head];
  else copy[head] = next;
  return copy as T;
}

export function getIn(obj: unknown, path: ReadonlyArray<string | number>): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}
