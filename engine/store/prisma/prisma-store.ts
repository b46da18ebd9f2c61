/**
 * RunStore + WorkflowStore + PublishingStore (AppStore) on Prisma. The same code serves PGlite and PostgreSQL.
 * `commit` (the hot path: one per node) is a single SQL statement — node snapshots, events and the run patch in
 * data-modifying CTEs — so a node costs one round trip and its snapshot and events land atomically.
 */
import {
  newRunRecord,
  type CommitBatch,
  type NewRun,
  type NodeRunRecord,
  type RunPatch,
  type RunRecord,
  type RunStatus,
} from '../types';
import type { TraceEvent } from '../../events/types';
import type { AppStore } from '../publishing';
import type { PrismaClient } from './generated/client';
import { Prisma } from './generated/client';
import type { SqlRunner } from './migrator';
import {
  COMMIT_ASYNC_SQL,
  COMMIT_CHECKPOINT_SQL,
  COMMIT_SQL,
  COMMIT_WITH_RUN_CHECKPOINT_SQL,
  COMMIT_WITH_RUN_SQL,
  FOLDABLE,
} from './commit-sql';

import { pgJson, pgSafe, runPatchData, toEvent, toNodeRun, toRun } from './rows';
import { PrismaWorkflowStore } from './workflow-store';

export interface PrismaStoreOptions {
  /** Commit node snapshots on PostgreSQL synchronously too (SNAPSHOT_SYNC_COMMIT, default off). */
  syncSnapshotCommits?: boolean;
}

export class PrismaStore extends PrismaWorkflowStore implements AppStore {
  /** Node snapshots as asynchronous commits (PostgreSQL; the embedded database always writes through). */
  private readonly asyncSnapshots: boolean;

  /** `sql`: the raw driver for the per-node commit (Prisma's raw-query path costs ~2× a direct driver call). */
  constructor(
    prisma: PrismaClient,
    readonly kind: string,
    sql?: SqlRunner,
    opts: PrismaStoreOptions = {},
  ) {
    super(prisma, sql);
    this.asyncSnapshots = kind === 'postgres' && !opts.syncSnapshotCommits;
  }

  // ── runs ─────────────────────────────────────────────────────────────────────
  async createRun(run: NewRun): Promise<{ run: RunRecord; created: boolean }> {
    if (this.sql) return this.insertRun(run);
    const data = {
      id: run.id,
      workflowId: run.workflowId,
      versionId: run.versionId,
      engine: run.engine,
      status: run.status,
      inputs: pgSafe(run.inputs) as Prisma.InputJsonValue,
      graph: run.graph as unknown as Prisma.InputJsonValue,
      idempotencyKey: run.idempotencyKey ?? null,
      apiKeyId: run.apiKeyId ?? null,
      triggerKind: run.triggerKind ?? null,
      triggerId: run.triggerId ?? null,
      ...(run.debug ? { debug: run.debug as unknown as Prisma.InputJsonValue } : {}),
      ...(run.ownerId
        ? {
            ownerId: run.ownerId,
            heartbeatAt: new Date(),
            startedAt: run.startedAt ? new Date(run.startedAt) : new Date(),
          }
        : {}),
    };
    try {
      return { run: toRun(await this.prisma.run.create({ data })), created: true };
    } catch (e) {
      if (run.idempotencyKey && e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
        const existing = await this.prisma.run.findFirst({
          where: { workflowId: run.workflowId, idempotencyKey: run.idempotencyKey },
        });
        if (existing) return { run: toRun(existing), created: false };
      }
      throw e;
    }
  }

  /** createRun through the driver (one statement, nothing read back): the published endpoint's hot path. */
  private async insertRun(run: NewRun): Promise<{ run: RunRecord; created: boolean }> {
    const now = new Date().toISOString();
    const rec = newRunRecord({ ...run, inputs: pgSafe(run.inputs) }, now);
    const rows = await this.sql!.prepared(
      'paiflow_insert_run',
      `INSERT INTO runs
        (id, workflow_id, version_id, engine, status, inputs, graph, idempotency_key, api_key_id, owner_id,
         heartbeat_at, started_at, created_at, debug, trigger_kind, trigger_id)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10,
              $11::timestamp(3), $12::timestamp(3), $13::timestamp(3), $14::jsonb, $15, $16)
      ON CONFLICT (workflow_id, idempotency_key) DO NOTHING
      RETURNING 1`,
      [
        run.id,
        run.workflowId,
        run.versionId,
        run.engine,
        run.status,
        pgJson(run.inputs),
        pgJson(run.graph),
        run.idempotencyKey ?? null,
        run.apiKeyId ?? null,
        rec.ownerId,
        rec.heartbeatAt,
        rec.startedAt,
        now,
        run.debug ? pgJson(run.debug) : null,
        run.triggerKind ?? null,
        run.triggerId ?? null,
      ],
    );
    if (rows.length === 0) {
      // Only a repeated (workflowId, idempotencyKey) conflicts here; a repeated id still fails on the primary key.
      const existing = await this.findRunByIdempotencyKey(run.workflowId, run.idempotencyKey!);
      if (existing) return { run: existing, created: false };
      throw new Error(`run ${run.id} was not inserted and no run holds its idempotency key`);
    }
    return { created: true, run: rec };
  }

  /** `workspaceId`: a run of another workspace's workflow is null, as if it did not exist. */
  async getRun(id: string, workspaceId?: string) {
    const r = workspaceId
      ? await this.prisma.run.findFirst({ where: { id, workflow: { workspaceId } } })
      : await this.prisma.run.findUnique({ where: { id } });
    return r ? toRun(r) : null;
  }

  async workspaceOfRun(runId: string): Promise<string | null> {
    const r = await this.prisma.run.findUnique({
      where: { id: runId },
      select: { workflow: { select: { workspaceId: true } } },
    });
    return r?.workflow.workspaceId ?? null;
  }

  async listRuns(workflowId: string, opts: { limit?: number } = {}) {
    const rows = await this.prisma.run.findMany({
      where: { workflowId },
      orderBy: { createdAt: 'desc' },
      take: Math.min(opts.limit ?? 50, 500),
    });
    return rows.map(toRun);
  }

  async updateRun(id: string, patch: RunPatch, expect?: RunStatus[]) {
    const res = await this.prisma.run.updateMany({
      where: { id, ...(expect ? { status: { in: expect } } : {}) },
      data: runPatchData(patch),
    });
    return res.count > 0;
  }

  async getNodeRuns(runId: string) {
    return (await this.prisma.nodeRun.findMany({ where: { runId } })).map(toNodeRun);
  }

  async commit(runId: string, batch: CommitBatch) {
    const nodes = nodeRows(runId, batch.nodes);
    const events = eventRows(runId, batch.events);
    // A terminal run patch (status/outputs/error/finishedAt) rides in the same statement: one round trip, atomic.
    const run = batch.run;
    const checkpoints = (batch.checkpoints ?? []).map((c) => ({
      run_id: runId,
      node_key: c.nodeKey,
      state: c.state ?? null,
      input_hash: c.inputHash,
      answer: c.answer ?? null,
      updated_at: c.updatedAt,
    }));
    const some = nodes.length > 0 || events.length > 0 || checkpoints.length > 0;
    const fold = !!run && !!this.sql && some && Object.keys(run).every((k) => FOLDABLE.has(k));
    if (some) {
      const [name, statement] = checkpoints.length
        ? fold
          ? ['paiflow_commit_run_checkpoint', COMMIT_WITH_RUN_CHECKPOINT_SQL]
          : ['paiflow_commit_checkpoint', COMMIT_CHECKPOINT_SQL]
        : fold
          ? ['paiflow_commit_run', COMMIT_WITH_RUN_SQL]
          : this.asyncSnapshots && this.sql
            ? ['paiflow_commit_async', COMMIT_ASYNC_SQL]
            : ['paiflow_commit', COMMIT_SQL];
      const params: unknown[] = [pgJson(nodes), pgJson(events)];
      if (fold) {
        const has = (k: string) =>
          Object.prototype.hasOwnProperty.call(run, k) && (run as Record<string, unknown>)[k] !== undefined;
        params.push(
          run!.status ?? null,
          has('outputs'),
          run!.outputs == null ? null : pgJson(run!.outputs),
          has('error'),
          run!.error == null ? null : pgJson(run!.error),
          has('finishedAt'),
          run!.finishedAt ? new Date(run!.finishedAt).toISOString() : null,
          runId,
        );
      }
      if (checkpoints.length) params.push(pgJson(checkpoints));
      // A run's terminal (or waiting) status is committed synchronously: on disk, with every snapshot before it.
      if (this.sql) await this.sql.write(name, statement, params, { last: fold });
      else await this.prisma.$executeRawUnsafe(statement, ...params);
    }
    // Other run-level patches (start, resume) go after the events, so the terminal event is never later than the
    // status.
    if (run && !fold) await this.updateRun(runId, run);
  }

  async transition(
    runId: string,
    expect: RunStatus[],
    patch: RunPatch,
    derive: (now: { nodes: NodeRunRecord[]; maxSeq: number }) => Pick<CommitBatch, 'nodes' | 'events'>,
  ) {
    return this.prisma.$transaction(async (tx) => {
      const changed = await tx.run.updateMany({
        where: { id: runId, status: { in: expect } },
        data: runPatchData(patch),
      });
      if (changed.count === 0) return null;
      const [nodes, last] = await Promise.all([
        tx.nodeRun.findMany({ where: { runId } }),
        tx.runEvent.aggregate({ where: { runId }, _max: { seq: true } }),
      ]);
      const batch = derive({ nodes: nodes.map(toNodeRun), maxSeq: last._max.seq ?? 0 });
      await tx.$executeRawUnsafe(
        COMMIT_SQL,
        pgJson(nodeRows(runId, batch.nodes)),
        pgJson(eventRows(runId, batch.events)),
      );
      return batch;
    });
  }

  async getCheckpoint(runId: string, nodeKey: string) {
    const r = await this.prisma.nodeCheckpoint.findUnique({ where: { runId_nodeKey: { runId, nodeKey } } });
    if (!r) return null;
    return {
      nodeKey: r.nodeKey,
      state: r.state ?? null,
      inputHash: r.inputHash,
      answer: r.answer ?? null,
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  async answerCheckpoint(runId: string, nodeKey: string, answer: unknown) {
    const value = pgSafe(answer) as Prisma.InputJsonValue;
    try {
      await this.prisma.nodeCheckpoint.upsert({
        where: { runId_nodeKey: { runId, nodeKey } },
        create: { runId, nodeKey, answer: value, updatedAt: new Date() },
        update: { answer: value, updatedAt: new Date() },
      });
      return true;
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2003') return false; // the run is gone
      throw e;
    }
  }

  async getEvents(runId: string, afterSeq = 0, limit = 10_000) {
    const rows = await this.prisma.runEvent.findMany({
      where: { runId, seq: { gt: afterSeq } },
      orderBy: { seq: 'asc' },
      take: limit,
    });
    return rows.map(toEvent);
  }

  async maxSeq(runId: string) {
    const r = await this.prisma.runEvent.aggregate({ where: { runId }, _max: { seq: true } });
    return r._max.seq ?? 0;
  }

  async heartbeat(ownerId: string, runIds: string[]) {
    if (!runIds.length) return [];
    await this.prisma.run.updateMany({ where: { id: { in: runIds }, ownerId }, data: { heartbeatAt: new Date() } });
    const cancelled = await this.prisma.run.findMany({
      where: { id: { in: runIds }, status: 'cancelled' },
      select: { id: true },
    });
    return cancelled.map((r) => r.id);
  }

  async findStaleRuns(staleBefore: Date) {
    const rows = await this.prisma.run.findMany({
      where: {
        status: { in: ['queued', 'running'] },
        OR: [{ heartbeatAt: null, createdAt: { lt: staleBefore } }, { heartbeatAt: { lt: staleBefore } }],
      },
    });
    return rows.map(toRun);
  }
}

/** Node snapshots as the commit statement's rows (commit-sql.ts). */
function nodeRows(runId: string, nodes: NodeRunRecord[] = []) {
  return nodes.map((n) => ({
    run_id: runId,
    node_id: n.nodeId,
    type: n.type,
    status: n.status,
    attempt: n.attempt,
    input: n.input ?? null,
    output: n.output ?? null,
    error: n.error ?? null,
    usage: n.usage ?? null,
    started_at: n.startedAt,
    finished_at: n.finishedAt,
    duration_ms: n.durationMs,
  }));
}

/** Trace events as the commit statement's rows (commit-sql.ts). */
function eventRows(runId: string, events: TraceEvent[] = []) {
  return events.map((e) => ({
    run_id: runId,
    seq: e.seq,
    ts: e.ts,
    type: e.type,
    node_id: e.nodeId ?? null,
    span_id: e.spanId,
    parent_span_id: e.parentSpanId ?? null,
    data: e.data ?? {},
  }));
}
