import type { ZodType } from 'zod';
import { configWithoutPins } from './workflow-calls';
import { collectRefs, collectUnclosedRefs } from '../template/resolve';
import { graphSchema, RESERVED_NODE_IDS, type EngineChoice, type EngineKind, type Graph } from './schema';
import type { Problem } from '../validation/problem';
import { zodProblems } from '../validation/zod-problems';
import { ancestorsOf, buildTopology, findCycle, reachableFrom, type Topology } from './topology';
import { pathsWithoutEnd } from './paths-without-end';
import { checkDeclarations, type ConversationVariable } from '../template/conversation-variables';

/**
 * What validating a graph needs to know of its node types, declared here so that the graph module stays below the
 * node contract (engine/node-kit's NodeRegistry is one).
 */
export interface NodeTypes {
  has(type: string): boolean;
  get(
    type: string,
    version?: number,
  ): {
    configSchema: ZodType<unknown>;
    outputs: Array<{ id: string }>;
    outputsFor?(config: unknown): Array<{ id: string }>;
    checkConfig?(config: unknown): Array<{ code: string; message: string; path: string }>;
    literalKeys?: string[];
  };
  capabilitiesOf(node: { type: string; data?: { version?: number } }): {
    entry?: boolean;
    terminal?: boolean;
    iterates?: unknown;
    /** It writes conversation variables: checks its config against the graph's declarations (paths in the config). */
    writesConversation?: {
      check(config: unknown, declared: ConversationVariable[]): Array<{ code: string; message: string; path: string }>;
    };
  };
}

export type { Problem } from '../validation/problem';

export interface ValidationResult {
  ok: boolean;
  engine: EngineKind;
  errors: Problem[];
  /** What runs but may not do what its author means (a path that reaches no End node); never blocks a save or run. */
  warnings: Problem[];
  graph?: Graph;
}

/**
 * The engine a run takes: the one asked for, else the state-graph engine for a graph with a cycle or a node that
 * iterates (a loop), else the DAG engine. Both pause (human input, tool approvals, breakpoints) the same way.
 */
export function chooseEngine(
  graph: Graph,
  registry: NodeTypes,
  requested: EngineChoice = 'auto',
  t: Topology = buildTopology(graph),
): EngineKind {
  if (requested !== 'auto') return requested;
  if (graph.nodes.some((n) => registry.capabilitiesOf(n).iterates)) return 'langgraph';
  return findCycle(t) ? 'langgraph' : 'dag';
}

/**
 * Returns every problem at once, each with a code and a JSON path, so the editor can mark all fields together.
 * Never throws on bad input.
 */
export function validateGraph(input: unknown, registry: NodeTypes, requested: EngineChoice = 'auto'): ValidationResult {
  const parsed = graphSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      engine: 'dag',
      errors: zodProblems(graphSchema, input, parsed.error.issues, { code: 'GRAPH_SCHEMA' }),
      warnings: [],
    };
  const graph = parsed.data;
  const errors: Problem[] = [];
  const idx = new Map<string, number>();

  graph.nodes.forEach((n, i) => {
    if (idx.has(n.id))
      errors.push({
        code: 'DUPLICATE_NODE_ID',
        message: `node id "${n.id}" is used twice`,
        path: `nodes[${i}].id`,
        nodeIds: [n.id],
      });
    else idx.set(n.id, i);
    if (RESERVED_NODE_IDS.has(n.id))
      errors.push({
        code: 'RESERVED_NODE_ID',
        message: `"${n.id}" is reserved and cannot be a node id`,
        path: `nodes[${i}].id`,
      });
    if (!registry.has(n.type)) {
      errors.push({
        code: 'UNKNOWN_NODE_TYPE',
        message: `unknown node type "${n.type}"`,
        path: `nodes[${i}].type`,
        nodeIds: [n.id],
      });
      return;
    }
    let def;
    try {
      def = registry.get(n.type, n.data.version);
    } catch (e) {
      errors.push({
        code: 'UNKNOWN_NODE_VERSION',
        message: (e as Error).message,
        path: `nodes[${i}].data.version`,
        nodeIds: [n.id],
      });
      return;
    }
    const config = configWithoutPins(n) ?? {};
    const cfg = def.configSchema.safeParse(config);
    if (!cfg.success) {
      const base = `nodes[${i}].data.config`;
      for (const p of zodProblems(def.configSchema, config, cfg.error.issues, { code: 'INVALID_CONFIG', base }))
        errors.push({ ...p, nodeIds: [n.id] });
    } else {
      const writes = registry.capabilitiesOf(n).writesConversation;
      for (const p of [
        ...(def.checkConfig?.(cfg.data) ?? []),
        ...(writes?.check(cfg.data, graph.conversationVariables ?? []) ?? []),
      ])
        errors.push({ ...p, path: `nodes[${i}].data.config.${p.path}`, nodeIds: [n.id] });
    }
  });

  errors.push(...checkDeclarations(graph.conversationVariables));
  const conversationNames = new Set((graph.conversationVariables ?? []).map((v) => v.name));

  const edgeIds = new Set<string>();
  graph.edges.forEach((e, i) => {
    if (edgeIds.has(e.id))
      errors.push({ code: 'DUPLICATE_EDGE_ID', message: `edge id "${e.id}" is used twice`, path: `edges[${i}].id` });
    edgeIds.add(e.id);
    for (const end of ['source', 'target'] as const) {
      if (!idx.has(e[end]))
        errors.push({
          code: 'DANGLING_EDGE',
          message: `edge ${end} "${e[end]}" is not a node of this graph`,
          path: `edges[${i}].${end}`,
        });
    }
    const src = idx.has(e.source) ? graph.nodes[idx.get(e.source)!] : undefined;
    if (src && registry.has(src.type)) {
      const def = registry.get(src.type);
      const cfg = def.configSchema.safeParse(src.data.config ?? {});
      const outs = def.outputsFor && cfg.success ? def.outputsFor(cfg.data) : def.outputs;
      if (outs.length === 0) {
        errors.push({
          code: 'INVALID_EDGE',
          message: `a "${src.type}" node has no outputs`,
          path: `edges[${i}].source`,
        });
      } else if (def.outputsFor && (!e.sourceHandle || !outs.some((o) => o.id === e.sourceHandle))) {
        errors.push({
          code: 'INVALID_HANDLE',
          message: `edge from "${src.id}" must leave from one of its branches: ${outs.map((o) => o.id).join(', ')}`,
          path: `edges[${i}].sourceHandle`,
        });
      }
    }
    const tgt = idx.has(e.target) ? graph.nodes[idx.get(e.target)!] : undefined;
    if (tgt && registry.capabilitiesOf(tgt).entry)
      errors.push({
        code: 'INVALID_EDGE',
        message: 'the start node cannot have incoming edges',
        path: `edges[${i}].target`,
      });
  });

  const starts = graph.nodes.map((n, i) => ({ n, i })).filter(({ n }) => registry.capabilitiesOf(n).entry);
  const ends = graph.nodes.filter((n) => registry.capabilitiesOf(n).terminal);
  if (starts.length === 0)
    errors.push({ code: 'MISSING_START', message: 'the workflow needs a start node', path: 'nodes' });
  if (starts.length > 1)
    errors.push({
      code: 'MULTIPLE_START',
      message: 'the workflow must have exactly one start node',
      path: `nodes[${starts[1].i}]`,
    });
  if (ends.length === 0) errors.push({ code: 'MISSING_END', message: 'the workflow needs an end node', path: 'nodes' });

  const t = buildTopology(graph);
  let warnings: Problem[] = [];
  if (starts.length >= 1) {
    const reach = reachableFrom(t, [starts[0].n.id]);
    warnings = pathsWithoutEnd(graph, registry, t, reach);
    graph.nodes.forEach((n, i) => {
      if (!reach.has(n.id))
        errors.push({
          code: 'UNREACHABLE_NODE',
          message: `node "${n.id}" cannot be reached from the start node`,
          path: `nodes[${i}]`,
          nodeIds: [n.id],
        });
    });
  }

  const engine = chooseEngine(graph, registry, requested, t);
  const cycle = findCycle(t);
  if (cycle && engine === 'dag' && !errors.some((e) => e.code === 'GRAPH_CYCLE')) {
    errors.push({
      code: 'GRAPH_CYCLE',
      message: `the DAG engine cannot run cycles: ${[...cycle, cycle[0]].join(' → ')}`,
      // Point at the edge that closes the cycle: removing it (or forcing the langgraph engine) fixes the graph.
      path: (() => {
        const i = graph.edges.findIndex((e) => e.source === cycle[cycle.length - 1] && e.target === cycle[0]);
        return i >= 0 ? `edges[${i}]` : `nodes[${idx.get(cycle[0])}]`;
      })(),
      nodeIds: cycle,
    });
  }

  // Template refs: the root must be `inputs` (declared on the start node), `conversation` (a declared conversation
  // variable) or an upstream node.
  const declared = new Set(
    starts.length
      ? ((starts[0].n.data.config as { inputs?: Array<{ name?: string } | null> }).inputs ?? []).map((d) => d?.name)
      : [],
  );
  graph.nodes.forEach((n, i) => {
    const literal = registry.has(n.type) ? (registry.get(n.type).literalKeys ?? []) : [];
    const config = Object.fromEntries(Object.entries(n.data.config ?? {}).filter(([k]) => !literal.includes(k)));
    // A `{{` that is never closed would be sent on as literal text: almost always a typo, so it is an error.
    for (const { path, text } of collectUnclosedRefs(config, `nodes[${i}].data.config`))
      errors.push({
        code: 'UNCLOSED_REF',
        message: `"${text}" opens a reference that is never closed: add "}}" after it, or remove the "{{"`,
        path,
        nodeIds: [n.id],
      });
    const refs = collectRefs(config, `nodes[${i}].data.config`);
    if (!refs.length) return;
    const upstream = ancestorsOf(t, n.id);
    for (const { path, ref } of refs) {
      for (const alt of ref.alternatives) {
        if (alt.literal !== undefined) continue;
        if (!alt.path) {
          errors.push({
            code: 'INVALID_REF',
            message: `"{{${ref.expr}}}" is not a valid reference (use paths like inputs.name or n1.output.text)`,
            path,
            nodeIds: [n.id],
          });
          continue;
        }
        const [root, second] = alt.path;
        if (root === 'inputs') {
          if (typeof second === 'string' && !declared.has(second)) {
            errors.push({
              code: 'UNRESOLVED_REF',
              message: `"{{${ref.expr}}}": the start node declares no input "${second}"`,
              path,
              nodeIds: [n.id],
            });
          }
        } else if (root === 'conversation') {
          if (typeof second === 'string' && !conversationNames.has(second))
            errors.push({
              code: 'UNRESOLVED_REF',
              message: `"{{${ref.expr}}}": the workflow declares no conversation variable "${second}"`,
              path,
              nodeIds: [n.id],
            });
        } else if (!idx.has(String(root))) {
          errors.push({
            code: 'UNRESOLVED_REF',
            message: `"{{${ref.expr}}}": there is no node "${root}"`,
            path,
            nodeIds: [n.id],
          });
        } else if (!upstream.has(String(root)) && engine === 'dag') {
          errors.push({
            code: 'UNRESOLVED_REF',
            message: `"{{${ref.expr}}}": node "${root}" is not upstream of "${n.id}"`,
            path,
            nodeIds: [n.id],
          });
        }
      }
    }
  });

  return { ok: errors.length === 0, engine, errors, warnings, graph };
}
