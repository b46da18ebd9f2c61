import { z } from 'zod';
import { conversationVariablesSchema } from '../template/conversation-variables';

/** Stored workflow graph = React Flow's own shape, plus our `data.config`, node version and run policy. */
export const NODE_ID_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const RESERVED_NODE_IDS = new Set(['inputs', 'env', 'sys', 'secrets', 'conversation']);

export const retryPolicySchema = z.object({
  maxAttempts: z.number().int().min(1).max(10).default(1),
  backoffMs: z.number().int().min(0).max(600_000).default(500),
  backoffMultiplier: z.number().min(1).max(10).default(2),
});
export type RetryPolicy = z.infer<typeof retryPolicySchema>;

export const nodeDataSchema = z.looseObject({
  label: z
    .string()
    .max(200)
    // NUL only: stored graphs may hold labels with line breaks, and they must keep running.
    .refine((s) => !s.includes('\u0000'), 'a NUL character is not allowed in a label')
    .optional(),
  version: z.number().int().min(1).optional(),
  config: z.record(z.string(), z.unknown()).default({}),
  retry: retryPolicySchema.partial().optional(),
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
});

export const graphNodeSchema = z.looseObject({
  id: z
    .string()
    .regex(NODE_ID_RE, 'node id must start with a letter and contain only letters, digits, _ or - (max 64)'),
  type: z.string().min(1),
  position: z.object({ x: z.number(), y: z.number() }).default({ x: 0, y: 0 }),
  data: nodeDataSchema.default({ config: {} }),
});

export const graphEdgeSchema = z.looseObject({
  id: z.string().min(1).max(200),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullish(),
  targetHandle: z.string().nullish(),
});

/** Keys that would rewire the object they are written into: refused anywhere in a graph. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of each prototype key in `value` (nodes' data and edges are free-form JSON beside their known keys). */
function prototypeKeys(value: unknown, path: PropertyKey[], out: PropertyKey[][], depth = 0): PropertyKey[][] {
  if (depth > 64 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) value.forEach((v, i) => prototypeKeys(v, [...path, i], out, depth + 1));
  else
    for (const [k, v] of Object.entries(value)) {
      if (PROTOTYPE_KEYS.has(k)) out.push([...path, k]);
      else prototypeKeys(v, [...path, k], out, depth + 1);
    }
  return out;
}

/** The most nodes a graph may have (an import with more is refused before it is converted). */
export const MAX_GRAPH_NODES = 5000;

export const graphSchema = z
  .strictObject({
    nodes: z.array(graphNodeSchema).max(MAX_GRAPH_NODES),
    edges: z.array(graphEdgeSchema).max(20000).default([]),
    viewport: z.object({ x: z.number(), y: z.number(), zoom: z.number() }).optional(),
    /** Typed values that persist across the turns of a chat conversation (conversation-variables.ts). */
    conversationVariables: conversationVariablesSchema.optional(),
  })
  .superRefine((graph, ctx) => {
    const free = { nodes: graph.nodes, edges: graph.edges, conversationVariables: graph.conversationVariables };
    for (const path of prototypeKeys(free, [], []))
      ctx.addIssue({
        code: 'custom',
        path,
        message: `"${String(path.at(-1))}" is a reserved key and cannot be used in a workflow`,
      });
  });

export type GraphNode = z.infer<typeof graphNodeSchema>;
export type GraphEdge = z.infer<typeof graphEdgeSchema>;
export type Graph = z.infer<typeof graphSchema>;

export const ENGINES = ['auto', 'dag', 'langgraph'] as const;
export type EngineChoice = (typeof ENGINES)[number];
export type EngineKind = Exclude<EngineChoice, 'auto'>;
