/**
 * WorkflowStore on Prisma: workflows, their published versions and slugs, API keys and CORS settings. Every record
 * belongs to a workspace; the lookups that routes use take the caller's workspace and treat a record of another
 * workspace as absent (`workspaceId` undefined: internal callers such as the engine, which act for a run).
 */
import type { EngineChoice, Graph } from '../../graph/schema';
import {
  DEFAULT_WORKSPACE_ID,
  type NewWorkflow,
  type WorkflowRecord,
  type WorkflowStore,
  type WorkflowVersionRecord,
} from '../types';
import type { PrismaClient } from './generated/client';
import { Prisma } from './generated/client';
import type { SqlRunner } from './migrator';
import type { ApiKeyRecord, PublishedWorkflow, PublishingStore } from '../publishing';
import type { ChatAppSettings } from '../chat';
import { iso, json, toApiKey, toRun, toVersion, toWorkflow, type Row } from './rows';

export class PrismaWorkflowStore implements WorkflowStore, PublishingStore {
  constructor(
    protected readonly prisma: PrismaClient,
    protected readonly sql?: SqlRunner,
  ) {}

  // ── workflows ────────────────────────────────────────────────────────────────
  async createWorkflow(w: NewWorkflow) {
    const data = { ...w, workspaceId: w.workspaceId ?? DEFAULT_WORKSPACE_ID };
    const r = await this.prisma.workflow.create({
      data: { ...data, graph: w.graph as unknown as Prisma.InputJsonValue },
    });
    return toWorkflow(r);
  }

  /** `workspaceId`: a workflow of another workspace is null, as if it did not exist. */
  async getWorkflow(id: string, workspaceId?: string) {
    const r = await this.prisma.workflow.findUnique({ where: { id, ...(workspaceId ? { workspaceId } : {}) } });
    return r ? toWorkflow(r) : null;
  }

  async listWorkflows(workspaceId?: string) {
    return (
      await this.prisma.workflow.findMany({
        where: workspaceId ? { workspaceId } : {},
        orderBy: { updatedAt: 'desc' },
      })
    ).map(toWorkflow);
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
   * Null when the workflow is gone. A concurrent publish (same version number) or a taken slug fails as a unique
   * violation (isUniqueViolation, engine/store/app/errors.ts) with nothing written: the caller retries.
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
          mcp: wf.mcp,
        },
      };
    }
    const [r] = await this.sql.prepared<Row>(
      'paiflow_key_and_published_mcp',
      `SELECT
        k.id AS k_id, k.workflow_id AS k_workflow_id, k.name AS k_name, k.prefix AS k_prefix, k.hash AS k_hash,
        k.created_at AS k_created_at, k.last_used_at AS k_last_used_at, k.revoked_at AS k_revoked_at,
        w.id AS w_id, w.name AS w_name, w.engine AS w_engine, w.slug AS w_slug,
        w.current_version_id AS w_current_version_id,
        w.cors_origins AS w_cors_origins, w.mcp AS w_mcp
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
            mcp: r.w_mcp === true,
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

  /**
   * Publishing settings that apply to every version: CORS origins, whether key holders may read the node trace, and
   * whether the MCP server offers the workflow as a tool.
   */
  async setPublishSettings(
    workflowId: string,
    settings: { corsOrigins?: string[] | null; publicTrace?: boolean; mcp?: boolean; chat?: ChatAppSettings },
  ): Promise<WorkflowRecord | null> {
    const { corsOrigins, publicTrace, mcp, chat } = settings;
    const res = await this.prisma.workflow.updateMany({
      where: { id: workflowId },
      data: {
        ...(corsOrigins !== undefined ? { corsOrigins: corsOrigins === null ? Prisma.DbNull : corsOrigins } : {}),
        ...(publicTrace !== undefined ? { publicTrace } : {}),
        ...(mcp !== undefined ? { mcp } : {}),
        ...(chat !== undefined ? { chat: json(chat) } : {}),
      },
    });
    return res.count ? this.getWorkflow(workflowId) : null;
  }

  /** The key whose sha256 is `hash` (revoked ones too: the caller decides), with the stored hash. */
  async findApiKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null> {
    const r = await this.prisma.apiKey.findUnique({ where: { hash } });
    return r ? { ...toApiKey(r), hash: r.hash } : null;
  }

  /** Revokes a key (idempotent: the first revocation time is kept). Null when no such key (in that workspace). */
  async revokeApiKey(id: string, workspaceId?: string): Promise<ApiKeyRecord | null> {
    const scope = workspaceId ? { workflow: { workspaceId } } : {};
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null, ...scope }, data: { revokedAt: new Date() } });
    const r = await this.prisma.apiKey.findFirst({ where: { id, ...scope } });
    return r ? toApiKey(r) : null;
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }
}
