/**
 * Seeded nodes: recorded in a run as succeeded with a given output instead of executing — like the snapshot a resume
 * reuses (RunState.seed reads a condition's chosen branch from its output's `branch`). Two uses:
 * - pinned data: a draft node's `data.pinned = { output, at }`. Test runs of the draft reuse it instead of calling the
 *   node; a run of a published version never does (publishing strips pins, and only runs without a versionId seed).
 * - the ancestors of a single-node run (single-node-run.ts).
 * A seeded node gets a stored snapshot (attempt 0: never executed) and, in the trace, a `node.progress` note saying
 * where its value came from followed by `node.succeeded` with that value, so viewers show it like any other.
 */
import type { Graph, GraphNode } from '../graph/schema';
import { ancestorsOf, buildTopology } from '../graph/topology';
import type { NodeRegistry } from '../node-kit/registry';
import type { NodeRunRecord } from '../store/types';
import { newSpanId, type RunJournal } from './run-journal';

export interface SeededNode {
  nodeId: string;
  type: string;
  output: unknown;
  /** Shown as the snapshot's input (a single-node run's ancestors: none). */
  input?: unknown;
  /** The `node.progress` note, e.g. `{ pinned: true }`. */
  note: Record<string, unknown>;
}

export interface PinnedData {
  output: unknown;
  at?: string;
}

/** Keys of `node.data` that only editor test runs use; a published version's graph has none of them. */
const TEST_ONLY_KEYS = ['pinned', 'breakpoint'] as const;

export function pinnedOf(node: GraphNode): PinnedData | null {
  const p = (node.data as { pinned?: unknown }).pinned;
  return p && typeof p === 'object' && !Array.isArray(p) && 'output' in p ? (p as PinnedData) : null;
}

/** Whether a node's pinned output may stand in for it: not the run's own ends, nor a node that iterates or pauses. */
export function canPin(registry: NodeRegistry, node: GraphNode): boolean {
  const caps = registry.capabilitiesOf(node);
  return !caps.entry && !caps.terminal && !caps.iterates && !caps.pauses;
}

/** The draft's pinned nodes as seeds; a pin on a node that runs once per loop pass (on a cycle) is ignored. */
export function pinnedSeeds(graph: Graph, registry: NodeRegistry, except?: ReadonlySet<string>): SeededNode[] {
  const pinned = graph.nodes.filter((n) => canPin(registry, n) && pinnedOf(n) && !except?.has(n.id));
  if (!pinned.length) return [];
  const t = buildTopology(graph);
  return pinned
    .filter((n) => !ancestorsOf(t, n.id).has(n.id))
    .map((n) => {
      const pin = pinnedOf(n)!;
      return { nodeId: n.id, type: n.type, output: pin.output, note: { pinned: true, at: pin.at ?? null } };
    });
}

/** A copy of the graph without pins and breakpoints (what a published version stores). */
export function withoutTestData(graph: Graph): Graph {
  const copy = structuredClone(graph);
  for (const n of copy.nodes) for (const k of TEST_ONLY_KEYS) delete (n.data as Record<string, unknown>)[k];
  return copy;
}

export function seededRecord(runId: string, s: SeededNode): NodeRunRecord {
  const now = new Date().toISOString();
  return {
    runId,
    nodeId: s.nodeId,
    type: s.type,
    status: 'succeeded',
    attempt: 0,
    input: s.input ?? null,
    output: s.output ?? null,
    error: null,
    usage: null,
    startedAt: now,
    finishedAt: now,
    durationMs: 0,
  };
}

/** Stores the seeded nodes' snapshots with their trace, durable before any node of the run executes. */
export async function recordSeeded(journal: RunJournal, runId: string, seeds: SeededNode[]): Promise<void> {
  if (!seeds.length) return;
  for (const s of seeds) {
    const spanId = newSpanId();
    journal.stageNode(seededRecord(runId, s));
    journal.emit('node.progress', s.note, { nodeId: s.nodeId, spanId });
    journal.emit(
      'node.succeeded',
      { type: s.type, attempt: 0, durationMs: 0, output: s.output ?? null, usage: null, ...s.note },
      { nodeId: s.nodeId, spanId },
    );
  }
  await journal.flush();
}
