/**
 * RunStore + WorkflowStore on Prisma. The same code serves PGlite and PostgreSQL.
 * `commit` (the hot path: one per node) is a single SQL statement — node snapshots, events and the run patch in
 * data-modifying CTEs — so a node costs one round trip and its snapshot and events land atomically.
 */
import type { ErrorJson } from '../../errors';
import type { TraceEvent } from '../../events/types';
import type { EngineChoice, EngineKind, Graph } from '../../graph/schema';
import {
  newRunRecord,
  type CommitBatch,
  type NewRun,
  type NodeRunRecord,
  type RunPatch,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type WorkflowRecord,
  type WorkflowStore,
  type WorkflowVersionRecord,
} from '../types';
import type { PrismaClient } from './generated/client';
import { Prisma } from './generated/client';
import type { SqlRunner } from './migrator';
import { COMMIT_ASYNC_SQL, COMMIT_SQL, COMMIT_WITH_RUN_SQL, FOLDABLE } from './commit-sql';

type Row = Record<string, any>;
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * PostgreSQL cannot store U+0000 or unpaired UTF-16 surrogates in jsonb. One such character in a node's output (an
 * HTTP body, an LLM reply) would make that commit — and, since the journal retries what it could not persist, every
 * later commit of the run — fail, so they are replaced by U+FFFD on the way in. JSON.stringify escapes exactly those
 * as \u0000 / \udXXX, so the common case costs one regex scan of text we build anyway.
 */
const UNSAFE_JSON = /\\u(?:0000|[dD][89a-fA-F])/;
const pgSafeString = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s).toWellFormed();
const unsafeString = (s: string) => s.includes('\u0000') || !s.isWellFormed();
function pgSafeReplacer(_key: string, v: unknown): unknown {
  if (typeof v === 'string') return pgSafeString(v);
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some(unsafeString)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [pgSafeString(k), x]));
  }
  return v;
}
/** JSON text safe for a jsonb parameter. */
function pgJson(v: unknown): string {
  const text = JSON.stringify(v);
  return UNSAFE_JSON.test(text) ? JSON.stringify(v, pgSafeReplacer) : text;
}
/** A value safe to hand to Prisma for a Json column. */
function pgSafe<T>(v: T): T {
  if (v === undefined || v === null) return v;
  const text = JSON.stringify(v);
  return text !== undefined && UNSAFE_JSON.test(text) ? (JSON.parse(JSON.stringify(v, pgSafeReplacer)) as T) : v;
}
const json = (v: unknown) =>
  v === undefined ? Prisma.DbNull : v === null ? Prisma.DbNull : (pgSafe(v) as Prisma.InputJsonValue);

function toWorkflow(r: Row): WorkflowRecord {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    graph: r.graph as Graph,
    engine: r.engine as EngineChoice,
    revision: r.revision,
    slug: r.slug ?? null,
    currentVersionId: r.currentVersionId ?? null,
    corsOrigins: (r.corsOrigins ?? null) as string[] | null,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

function toVersion(r: Row): WorkflowVersionRecord {
  return {
    id: r.id,
    workflowId: r.workflowId,
    version: r.version,
    graph: r.graph as Graph,
    engine: r.engine as EngineChoice,
    createdAt: iso(r.createdAt)!,
  };
}

/** What the published endpoint needs of a workflow (not its draft graph). */
export type PublishedWorkflow = Pick<
  WorkflowRecord,
  'id' | 'name' | 'engine' | 'slug' | 'currentVersionId' | 'corsOrigins'
>;

/** An API key as the API shows it: never the key, never its hash. */
export interface ApiKeyRecord {
  id: string;
  workflowId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function toApiKey(r: Row): ApiKeyRecord {
  return {
    id: r.id,
    workflowId: r.workflowId,
    name: r.name,
    prefix: r.prefix,
    createdAt: iso(r.createdAt)!,
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
  };
}

function toRun(r: Row): RunRecord {
  return {
    id: r.id,
    workflowId: r.workflowId,
    versionId: r.versionId ?? null,
    engine: r.engine as EngineKind,
    status: r.status as RunStatus,
    inputs: (r.inputs ?? {}) as Record<string, unknown>,
    outputs: (r.outputs ?? null) as Record<string, unknown> | null,
    error: (r.error ?? null) as ErrorJson | null,
    graph: r.graph as Graph,
    ownerId: r.ownerId ?? null,
    heartbeatAt: iso(r.heartbeatAt),
    idempotencyKey: r.idempotencyKey ?? null,
    createdAt: iso(r.createdAt)!,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
  };
}

function toNodeRun(r: Row): NodeRunRecord {
  return {
    runId: r.runId,
    nodeId: r.nodeId,
    type: r.type,
    status: r.status,
    attempt: r.attempt,
    input: r.input ?? null,
    output: r.output ?? null,
    error: r.error ?? null,
    usage: r.usage ?? null,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    durationMs: r.durationMs ?? null,
  };
}

function toEvent(r: Row): TraceEvent {
  return {
    seq: r.seq,
    runId: r.runId,
    ts: iso(r.ts)!,
    type: r.type,
    ...(r.nodeId ? { nodeId: r.nodeId } : {}),
    spanId: r.spanId,
    ...(r.parentSpanId ? { parentSpanId: r.parentSpanId } : {}),
    data: r.data ?? {},
  };
}

function runPatchData(p: RunPatch): Prisma.RunUpdateManyMutationInput {
  const d: Prisma.RunUpdateManyMutationInput = {};
  if (p.status !== undefined) d.status = p.status;
  if (p.engine !== undefined) d.engine = p.engine;
  if (p.outputs !== undefined) d.outputs = json(p.outputs);
  if (p.error !== undefined) d.error = json(p.error);
  if (p.graph !== undefined) d.graph = p.graph as unknown as Prisma.InputJsonValue;
  if (p.inputs !== undefined) d.inputs = pgSafe(p.inputs) as Prisma.InputJsonValue;
  if (p.ownerId !== undefined) d.ownerId = p.ownerId;
  if (p.heartbeatAt !== undefined) d.heartbeatAt = p.heartbeatAt ? new Date(p.heartbeatAt) : null;
  if (p.startedAt !== undefined) d.startedAt = p.startedAt ? new Date(p.startedAt) : null;
  if (p.finishedAt !== undefined) d.finishedAt = p.finishedAt ? new Date(p.finishedAt) : null;
  return d;
}

export class PrismaStore implements RunStore, WorkflowStore {
  /** Node snapshots as asynchronous commits (PostgreSQL; the embedded database always writes through). */
  private readonly asyncSnapshots: boolean;

  /** `sql`: the raw driver for the per-node commit (Prisma's raw-query path costs ~2× a direct driver call). */
  constructor(
    private readonly prisma: PrismaClient,
    readonly kind: string,
    private readonly sql?: SqlRunner,
  ) {
    this.asyncSnapshots = kind === 'postgres' && !/^(1|true|on)$/i.test(process.env.SNAPSHOT_SYNC_COMMIT ?? '');
  }

  // ── workflows ────────────────────────────────────────────────────────────────
  async createWorkflow(w: { id: string; name: string; description: string; graph: Graph; engine: EngineChoice }) {
    const r = await this.prisma.workflow.create({ data: { ...w, graph: w.graph as unknown as Prisma.InputJsonValue } });
    return toWorkflow(r);
  }

  async getWorkflow(id: string) {
    const r = await this.prisma.workflow.findUnique({ where: { id } });
    return r ? toWorkflow(r) : null;
  }

  async listWorkflows() {
    return (await this.prisma.workflow.findMany({ orderBy: { updatedAt: 'desc' } })).map(toWorkflow);
  }

  async updateWorkflow(
    id: string,
    patch: Partial<Pick<WorkflowRecord, 'name' | 'description' | 'graph' | 'engine'>>,
    expectRevision?: number,
  ) {
    const data: Prisma.WorkflowUpdateManyMutationInput = { revision: { increment: 1 } };
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.description !== undefined) data.description = patch.description;
    if (patch.engine !== undefined) data.engine = patch.engine;
    if (patch.graph !== undefined) data.graph = patch.graph as unknown as Prisma.InputJsonValue;
    const res = await this.prisma.workflow.updateMany({
      where: { id, ...(expectRevision !== undefined ? { revision: expectRevision } : {}) },
      data,
    });
    if (res.count === 0) return (await this.getWorkflow(id)) ? ('conflict' as const) : null;
    return this.getWorkflow(id);
  }

  async deleteWorkflow(id: string) {
    return (await this.prisma.workflow.deleteMany({ where: { id } })).count > 0;
  }

  async getVersion(id: string): Promise<WorkflowVersionRecord | null> {
    const r = await this.prisma.workflowVersion.findUnique({ where: { id } });
    return r
      ? {
          id: r.id,
          workflowId: r.workflowId,
          version: r.version,
          graph: r.graph as unknown as Graph,
          engine: r.engine as EngineChoice,
          createdAt: iso(r.createdAt)!,
        }
      : null;
  }

  // ── published versions, slugs and API keys (the v1 run endpoint) ─────────────
  async getWorkflowBySlug(slug: string) {
    const r = await this.prisma.workflow.findUnique({ where: { slug } });
    return r ? toWorkflow(r) : null;
  }

  /** Slugs in use that start with `base` (to pick a free `base`, `base-2`, …). */
  async slugsStartingWith(base: string): Promise<string[]> {
    const rows = await this.prisma.workflow.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
    return rows.map((r) => r.slug!).filter(Boolean);
  }

  async listVersions(workflowId: string): Promise<WorkflowVersionRecord[]> {
    return (await this.prisma.workflowVersion.findMany({ where: { workflowId }, orderBy: { version: 'desc' } })).map(
      toVersion,
    );
  }

  async getVersionByNumber(workflowId: string, version: number): Promise<WorkflowVersionRecord | null> {
    const r = await this.prisma.workflowVersion.findUnique({ where: { workflowId_version: { workflowId, version } } });
    return r ? toVersion(r) : null;
  }

  /**
   * Snapshots `graph` + `engine` as version max+1 and makes it current; sets `slug` only if the workflow has none.
   * Null when the workflow is gone. A concurrent publish (same version number) or a taken slug surfaces as Prisma's
   * P2002 with nothing written: the caller retries.
   */
  async publishVersion(
    workflowId: string,
    v: { id: string; graph: Graph; engine: EngineChoice; slug: string },
  ): Promise<{ workflow: WorkflowRecord; version: WorkflowVersionRecord } | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await tx.workflow.findUnique({ where: { id: workflowId }, select: { id: true } }))) return null;
      const max = await tx.workflowVersion.aggregate({ where: { workflowId }, _max: { version: true } });
      const version = await tx.workflowVersion.create({
        data: {
          id: v.id,
          workflowId,
          version: (max._max.version ?? 0) + 1,
          graph: v.graph as unknown as Prisma.InputJsonValue,
          engine: v.engine,
        },
      });
      // `slug IS NULL` is re-checked after a concurrent publish's row lock is released: a slug, once set, stays.
      await tx.workflow.updateMany({ where: { id: workflowId, slug: null }, data: { slug: v.slug } });
      const workflow = await tx.workflow.update({ where: { id: workflowId }, data: { currentVersionId: version.id } });
      return { workflow: toWorkflow(workflow), version: toVersion(version) };
    });
  }

  /** Points the endpoint at a version of this workflow, or unpublishes it (null). The slug stays. */
  async setCurrentVersion(workflowId: string, versionId: string | null): Promise<WorkflowRecord | null> {
    const res = await this.prisma.workflow.updateMany({
      where: { id: workflowId },
      data: { currentVersionId: versionId },
    });
    return res.count ? this.getWorkflow(workflowId) : null;
  }

  async findRunByIdempotencyKey(workflowId: string, idempotencyKey: string) {
    const r = await this.prisma.run.findUnique({
      where: { workflowId_idempotencyKey: { workflowId, idempotencyKey } },
    });
    return r ? toRun(r) : null;
  }

  async createApiKey(k: {
    id: string;
    workflowId: string;
    name: string;
    prefix: string;
    hash: string;
  }): Promise<ApiKeyRecord> {
    return toApiKey(await this.prisma.apiKey.create({ data: k }));
  }

  async listApiKeys(workflowId: string): Promise<ApiKeyRecord[]> {
    return (await this.prisma.apiKey.findMany({ where: { workflowId }, orderBy: { createdAt: 'desc' } })).map(toApiKey);
  }

  /**
   * The published endpoint's one read per request: the key whose sha256 is `hash` (revoked ones too: the caller
   * decides) and the workflow published under `slug`, either null, in one round trip.
   */
  async findKeyAndPublished(
    hash: string,
    slug: string,
  ): Promise<{ key: (ApiKeyRecord & { hash: string }) | null; workflow: PublishedWorkflow | null }> {
    if (!this.sql) {
      const [key, wf] = await Promise.all([this.findApiKeyByHash(hash), this.getWorkflowBySlug(slug)]);
      return {
        key,
        workflow: wf && {
          id: wf.id,
          name: wf.name,
          engine: wf.engine,
          slug: wf.slug,
          currentVersionId: wf.currentVersionId,
          corsOrigins: wf.corsOrigins,
        },
      };
    }
    const [r] = await this.sql.prepared<Row>(
      'paiflow_key_and_published',
      `SELECT
        k.id AS k_id, k.workflow_id AS k_workflow_id, k.name AS k_name, k.prefix AS k_prefix, k.hash AS k_hash,
        k.created_at AS k_created_at, k.last_used_at AS k_last_used_at, k.revoked_at AS k_revoked_at,
        w.id AS w_id, w.name AS w_name, w.engine AS w_engine, w.slug AS w_slug, w.current_version_id AS w_current_version_id,
        w.cors_origins AS w_cors_origins
      FROM (SELECT $1::text AS hash, $2::text AS slug) q
      LEFT JOIN api_keys k ON k.hash = q.hash
      LEFT JOIN workflows w ON w.slug = q.slug`,
      [hash, slug],
    );
    return {
      key: r.k_id
        ? {
            id: r.k_id,
            workflowId: r.k_workflow_id,
            name: r.k_name,
            prefix: r.k_prefix,
            hash: r.k_hash,
            createdAt: iso(r.k_created_at)!,
            lastUsedAt: iso(r.k_last_used_at),
            revokedAt: iso(r.k_revoked_at),
          }
        : null,
      workflow: r.w_id
        ? {
            id: r.w_id,
            name: r.w_name,
            engine: r.w_engine as EngineChoice,
            slug: r.w_slug,
            currentVersionId: r.w_current_version_id ?? null,
            corsOrigins: (r.w_cors_origins ?? null) as string[] | null,
          }
        : null,
    };
  }

  /**
   * The CORS origins of the workflow published under `slug`, or of the workflow `runId` belongs to: the list, null
   * for the server default, undefined when there is no such workflow or run. (Preflights and early errors.)
   */
  async corsOriginsFor(where: { slug: string } | { runId: string }): Promise<string[] | null | undefined> {
    const r =
      'slug' in where
        ? await this.prisma.workflow.findUnique({ where: { slug: where.slug }, select: { corsOrigins: true } })
        : (
            await this.prisma.run.findUnique({
              where: { id: where.runId },
              select: { workflow: { select: { corsOrigins: true } } },
            })
          )?.workflow;
    return r ? ((r.corsOrigins ?? null) as string[] | null) : undefined;
  }

  async setCorsOrigins(workflowId: string, origins: string[] | null): Promise<WorkflowRecord | null> {
    const res = await this.prisma.workflow.updateMany({
      where: { id: workflowId },
      data: { corsOrigins: origins === null ? Prisma.DbNull : origins },
    });
    return res.count ? this.getWorkflow(workflowId) : null;
  }

  /** The key whose sha256 is `hash` (revoked ones too: the caller decides), with the stored hash. */
  async findApiKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null> {
    const r = await this.prisma.apiKey.findUnique({ where: { hash } });
    return r ? { ...toApiKey(r), hash: r.hash } : null;
  }

  /** Revokes a key (idempotent: the first revocation time is kept). Null when no such key. */
  async revokeApiKey(id: string): Promise<ApiKeyRecord | null> {
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    const r = await this.prisma.apiKey.findUnique({ where: { id } });
    return r ? toApiKey(r) : null;
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } });
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
        (id, workflow_id, version_id, engine, status, inputs, graph, idempotency_key, api_key_id, owner_id, heartbeat_at, started_at, created_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11::timestamp(3), $12::timestamp(3), $13::timestamp(3))
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

  async getRun(id: string) {
    const r = await this.prisma.run.findUnique({ where: { id } });
    return r ? toRun(r) : null;
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
    const nodes = (batch.nodes ?? []).map((n) => ({
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
    const events = (batch.events ?? []).map((e) => ({
      run_id: runId,
      seq: e.seq,
      ts: e.ts,
      type: e.type,
      node_id: e.nodeId ?? null,
      span_id: e.spanId,
      parent_span_id: e.parentSpanId ?? null,
      data: e.data ?? {},
    }));
    // A terminal run patch (status/outputs/error/finishedAt) rides in the same statement: one round trip, atomic.
    const run = batch.run;
    const fold =
      !!run && !!this.sql && (nodes.length > 0 || events.length > 0) && Object.keys(run).every((k) => FOLDABLE.has(k));
    if (nodes.length || events.length) {
      const [name, statement] = fold
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
      // A run's terminal (or waiting) status is committed synchronously: on disk, with every snapshot before it.
      if (this.sql) await this.sql.write(name, statement, params, { last: fold });
      else await this.prisma.$executeRawUnsafe(statement, ...params);
    }
    // Other run-level patches (start, resume) go after the events, so the terminal event is never later than the status.
    if (run && !fold) await this.updateRun(runId, run);
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
