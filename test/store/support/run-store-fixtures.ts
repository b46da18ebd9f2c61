/**
 * Fixtures of the RunStore conformance suite, shared by its test files: the cases (every store kind, commits via the
 * raw driver and via Prisma), a store for a case, and records (runs, node snapshots, events) with sensible defaults.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { NewRun, NodeRunRecord } from '@/engine/store/types';
import type { TestDb } from '../../support/databases';

export const GRAPH: Graph = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    { id: 'end', type: 'end', position: { x: 200, y: 0 }, data: { config: { outputs: [] } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
};

export const id = (p: string) => `${p}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function newRun(workflowId: string, patch: Partial<NewRun> = {}): NewRun {
  return {
    id: id('run'),
    workflowId,
    versionId: null,
    engine: 'dag',
    status: 'queued',
    inputs: { q: 'hello' },
    graph: GRAPH,
    ...patch,
  };
}

export function nodeRec(runId: string, nodeId: string, patch: Partial<NodeRunRecord> = {}): NodeRunRecord {
  return {
    runId,
    nodeId,
    type: 'probe',
    status: 'running',
    attempt: 1,
    input: { a: 1 },
    output: null,
    error: null,
    usage: null,
    startedAt: '2024-05-01T10:00:00.123Z',
    finishedAt: null,
    durationMs: null,
    ...patch,
  };
}

export function ev(runId: string, seq: number, patch: Partial<TraceEvent> = {}): TraceEvent {
  return {
    seq,
    runId,
    ts: new Date(Date.UTC(2024, 4, 1, 10, 0, 0, seq)).toISOString(),
    type: 'node.progress',
    nodeId: 'n1',
    spanId: `span${seq}`,
    parentSpanId: 'root',
    data: { i: seq },
    ...patch,
  };
}

export type CommitPath = 'driver' | 'prisma';

/**
 * The app wires the store with the raw driver for commits (db.sql); without it, commits go through Prisma. Both
 * must conform.
 */
export function conformanceCases<K extends TestDb['kind']>(kinds: K[]): Array<{ kind: K; commitPath: CommitPath }> {
  return kinds.flatMap((kind) => [
    { kind, commitPath: 'driver' as const },
    { kind, commitPath: 'prisma' as const },
  ]);
}

export function conformanceStore(tdb: TestDb, commitPath: CommitPath): PrismaStore {
  return commitPath === 'driver'
    ? new PrismaStore(tdb.db.prisma, tdb.kind, tdb.db.sql)
    : new PrismaStore(tdb.db.prisma, tdb.kind);
}

/** A new workflow's id. */
export async function createWorkflow(store: PrismaStore): Promise<string> {
  return (
    await store.createWorkflow({ id: id('wf'), name: 'conformance', description: '', graph: GRAPH, engine: 'auto' })
  ).id;
}

/** A new stored run (of a new workflow unless `patch.workflowId` names one). */
export async function createRun(store: PrismaStore, patch: Partial<NewRun> = {}) {
  const wf = patch.workflowId ?? (await createWorkflow(store));
  const { run: r, created } = await store.createRun(newRun(wf, patch));
  expect(created).toBe(true);
  return r;
}
