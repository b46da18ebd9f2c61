/**
 * Run one node: a real, stored run of the draft restricted to the node and its ancestors, in which every ancestor is
 * seeded as succeeded with its upstream value (pinned-data.ts) and only the node executes — with the run's real
 * services (credentials, knowledge, memory scoped by the run's workspace), its snapshot and its trace. The run is
 * marked `debug.only = nodeId` so history can tell it apart, and is never resumed (RunManager.resume refuses it).
 *
 * An ancestor's value is, in this order: `upstream[id]`; the explicitly given run's succeeded snapshot; the node's
 * pinned output; the last run's succeeded snapshot. Start's value is the start inputs. An ancestor without a value
 * is accepted only when it would be skipped anyway (on a branch a seeded condition did not take); any other one is
 * UPSTREAM_MISSING. The node's own incoming edges are left out of the run's graph, so it runs whatever branch its
 * upstream took (the person asked to run it). A node that runs per loop pass (on a cycle, or a loop / human-input
 * node) is refused with SINGLE_NODE_IN_LOOP: its input depends on the pass.
 */
import { PaiError, WorkflowInvalidError } from '../errors';
import type { Graph, GraphNode } from '../graph/schema';
import { ancestorsOf, buildTopology } from '../graph/topology';
import type { NodeRegistry } from '../node-kit/registry';
import { checkRunInputs, type StartConfig } from '../nodes/start';
import type { TraceEvent } from '../events/types';
import { zodProblems } from '../validation/zod-problems';
import type {
  NodeRunRecord,
  NodeStatus,
  RunDebug,
  RunRecord,
  RunStatus,
  RunStore,
  WorkflowRecord,
} from '../store/types';
import { pinnedOf, seededRecord, type SeededNode } from './pinned-data';
import type { RunManager } from './run-manager';
import { Frontier, RunState } from './scheduler-core';

/** The values of an earlier run of the workflow: the one the caller named, or its last run. */
export interface UpstreamRun {
  run: Pick<RunRecord, 'id' | 'inputs'>;
  nodes: NodeRunRecord[];
  /** Named by the caller (fromRunId): it wins over pinned data; the last run does not. */
  explicit: boolean;
}

export interface SingleNodeRequest {
  workflow: Pick<WorkflowRecord, 'id'> & { graph: Graph };
  nodeId: string;
  upstream?: Record<string, unknown>;
  source?: UpstreamRun | null;
  /** The start inputs (`{{inputs.x}}`); default: the source run's. */
  inputs?: Record<string, unknown>;
  /** The node's resolved input as edited: it runs with exactly this config (validated by its configSchema). */
  input?: Record<string, unknown>;
}

export interface SingleNodePlan {
  graph: Graph;
  inputs: Record<string, unknown>;
  seeded: SeededNode[];
  debug: RunDebug;
}

const notFound = (nodeId: string) => new PaiError('NODE_NOT_FOUND', `node "${nodeId}" is not in the workflow`);

function valueOf(
  node: GraphNode,
  req: SingleNodeRequest,
  snapshots: Map<string, NodeRunRecord>,
  inputs: Record<string, unknown>,
  registry: NodeRegistry,
): SeededNode | null {
  const seed = (output: unknown, note: Record<string, unknown>): SeededNode => ({
    nodeId: node.id,
    type: node.type,
    output,
    note,
  });
  const up = req.upstream ?? {};
  if (Object.prototype.hasOwnProperty.call(up, node.id)) return seed(up[node.id], { seeded: 'upstream' });
  if (registry.capabilitiesOf(node).entry) {
    const config = registry.get(node.type, node.data.version).configSchema.parse(node.data.config ?? {}) as StartConfig;
    return seed(checkRunInputs(config, inputs).value, { seeded: 'inputs' });
  }
  const snap = snapshots.get(node.id);
  const fromRun = snap?.status === 'succeeded' ? seed(snap.output, { seeded: 'run', runId: req.source!.run.id }) : null;
  if (fromRun && req.source?.explicit) return fromRun;
  const pin = pinnedOf(node);
  if (pin) return seed(pin.output, { pinned: true, at: pin.at ?? null });
  return fromRun;
}

/** Checks the request and builds the run: its graph, inputs, seeded ancestors and debug marker. Throws PaiError. */
export function planSingleNodeRun(req: SingleNodeRequest, registry: NodeRegistry): SingleNodePlan {
  const { graph, nodeId } = { graph: req.workflow.graph, nodeId: req.nodeId };
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (!node) throw notFound(nodeId);
  if (!registry.has(node.type))
    throw new WorkflowInvalidError('UNKNOWN_NODE_TYPE', `node "${nodeId}" has the unknown type "${node.type}"`);
  const def = registry.get(node.type, node.data.version);
  const t = buildTopology(graph);
  const ancestors = ancestorsOf(t, nodeId);
  const caps = registry.capabilitiesOf(node);
  if (ancestors.has(nodeId) || caps.iterates || caps.pauses)
    throw new PaiError(
      'SINGLE_NODE_IN_LOOP',
      `"${node.data.label ?? nodeId}" runs once per loop pass (or pauses the run): run the workflow instead`,
    );
  for (const id of Object.keys(req.upstream ?? {}))
    if (!ancestors.has(id))
      throw new PaiError('NOT_UPSTREAM', `node "${id}" is not upstream of "${nodeId}"`, {
        path: `upstream.${id}`,
      });
  if (req.input !== undefined) {
    const parsed = def.configSchema.safeParse(req.input);
    if (!parsed.success) {
      const problems = zodProblems(def.configSchema, req.input, parsed.error.issues, {
        code: 'INVALID_INPUT',
        base: 'input',
      });
      const [first] = problems;
      const message = first.code === 'INVALID_INPUT' ? `the edited input is invalid: ${first.message}` : first.message;
      throw new PaiError(first.code, message, {
        path: first.path,
        details: { ...first.details, errors: problems },
      });
    }
  }

  const inputs = req.inputs ?? req.source?.run.inputs ?? {};
  const snapshots = new Map((req.source?.nodes ?? []).map((n) => [n.nodeId, n]));
  const nodes = graph.nodes.filter((n) => ancestors.has(n.id) || n.id === nodeId);
  const sub: Graph = {
    nodes,
    // Edges among the ancestors decide which of them a seeded condition skips; the node's own are left out.
    edges: graph.edges.filter((e) => ancestors.has(e.source) && ancestors.has(e.target)),
    // The node reads (and, an assigner, writes) the conversation variables at their defaults.
    ...(graph.conversationVariables ? { conversationVariables: graph.conversationVariables } : {}),
  };
  const seeded: SeededNode[] = [];
  for (const n of nodes) {
    if (n.id === nodeId) continue;
    const v = valueOf(n, req, snapshots, inputs, registry);
    if (v) seeded.push(v);
  }

  // What the scheduler will decide (the same RunState): every ancestor must be seeded or skipped, never executed.
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const state = new RunState(inputs);
  state.seed(
    {
      previous: new Map(seeded.map((s) => [s.nodeId, seededRecord('', s)])),
      reuse: new Set(seeded.map((s) => s.nodeId)),
      registry,
    },
    byId,
  );
  // The run's frontier: the ancestors a seeded condition skipped are decided; anything else undecided is missing.
  const st = buildTopology(sub);
  new Frontier(state, st.incoming, st.outgoing, (id) => state.settled(id, 'skipped')).considerAll(st.ids);
  const missing = nodes.filter((n) => n.id !== nodeId && !state.status.has(n.id)).map((n) => n.id);
  if (missing.length)
    throw new PaiError(
      'UPSTREAM_MISSING',
      `no value for upstream node "${missing[0]}": give upstream.${missing[0]}, a fromRunId, or run the workflow first`,
      { path: `upstream.${missing[0]}`, details: { missing } },
    );

  return {
    graph: sub,
    inputs,
    seeded,
    debug: { breakpoints: [], step: false, only: nodeId, ...(req.input !== undefined ? { input: req.input } : {}) },
  };
}

/**
 * The run whose values a single-node run uses: `fromRunId` (a run of this workflow in `workspaceId`, else 404), else
 * the workflow's last run, else none.
 */
export async function upstreamRunOf(
  store: RunStore,
  workflowId: string,
  workspaceId: string,
  fromRunId?: string,
): Promise<UpstreamRun | null> {
  const run = fromRunId
    ? await store.getRun(fromRunId, workspaceId)
    : ((await store.listRuns(workflowId, { limit: 1 }))[0] ?? null);
  if (fromRunId && run?.workflowId !== workflowId)
    throw new PaiError('RUN_NOT_FOUND', `run ${fromRunId} is not a run of this workflow`, {
      path: 'fromRunId',
    });
  return run ? { run, nodes: await store.getNodeRuns(run.id), explicit: !!fromRunId } : null;
}

/** Plans and starts the run; resolves once it is stored (RunManager.outcome settles when it ends). */
export async function startSingleNodeRun(
  runs: RunManager,
  registry: NodeRegistry,
  req: SingleNodeRequest,
): Promise<RunRecord> {
  const plan = planSingleNodeRun(req, registry);
  return runs.startSeeded({ workflowId: req.workflow.id, ...plan });
}

export interface SingleNodeOutcome {
  runId: string;
  /** The node's status; the run's when the node never started (e.g. the run failed before it). */
  status: NodeStatus | RunStatus;
  input: unknown;
  output: unknown;
  error: NodeRunRecord['error'];
  usage: NodeRunRecord['usage'];
  durationMs: number | null;
  /** The node's trace events (its span and child spans). */
  events: TraceEvent[];
}

export async function singleNodeOutcome(store: RunStore, run: RunRecord): Promise<SingleNodeOutcome> {
  const nodeId = run.debug?.only ?? '';
  const [snapshots, events] = await Promise.all([store.getNodeRuns(run.id), store.getEvents(run.id)]);
  const snap = snapshots.find((n) => n.nodeId === nodeId);
  return {
    runId: run.id,
    status: snap && snap.status !== 'pending' ? snap.status : run.status,
    input: snap?.input ?? null,
    output: snap?.output ?? null,
    error: snap?.error ?? (snap?.status === 'succeeded' ? null : run.error),
    usage: snap?.usage ?? null,
    durationMs: snap?.durationMs ?? null,
    events: events.filter((e) => e.nodeId === nodeId),
  };
}
