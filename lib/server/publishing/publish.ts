/**
 * Publishing: a workflow's draft is validated and snapshotted into an immutable, numbered WorkflowVersion that the
 * public endpoint /api/v1/workflows/:slug/run serves. The slug is derived from the name on first publish (or given
 * then) and never changes afterwards, so integrations keep working when the workflow is renamed; unpublishing keeps
 * the slug and every version, so publishing again or rolling back restores the same URL.
 *
 * A version pins the workflows it calls (sub-workflow nodes, agents' workflow tools): each call gets the child's
 * version number at publish time as `pinnedVersion` in the version's graph (the draft is left as it is), and the
 * runner runs exactly that version for a published run, whatever the child's draft or later versions become. A
 * child that has no published version makes publishing fail.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PaiError, WorkflowInvalidError } from '@/engine/errors';
import { answerWith } from '@/lib/http/errors';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { withoutPins, workflowCallsOf } from '@/engine/graph/workflow-calls';
import { withoutTestData } from '@/engine/runtime/pinned-data';
import { isUniqueViolation } from '@/engine/store/app/errors';
import type { WorkflowRecord, WorkflowVersionRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { diffGraphs } from '../workflows/graph-diff';
import { workflowCallCycles } from '../workflows/call-cycles';
import { corsOrigins } from './v1-settings';
import { originListSchema } from './origins';
import { chatSettingsSchema, presentChat } from './chat-settings';
import { gateSchema } from '../evaluations/evaluation-schemas';

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MAX = 64;

export const publishBodySchema = z.strictObject({
  slug: z
    .string()
    .max(SLUG_MAX, `a slug has at most ${SLUG_MAX} characters`)
    .regex(SLUG_RE, 'a slug is lower-case letters and digits separated by single hyphens')
    .optional(),
  /** Publish even when the evaluation gate refuses the draft (owners only; recorded in the audit log). */
  force: z.boolean().optional(),
});

/**
 * PATCH /api/workflows/:id/publish: which browser origins may call the endpoint (null = the server default), whether
 * API-key holders may read the node trace of published runs, whether the MCP server (/api/mcp) offers the
 * workflow as a tool to its API keys, and the chat app (`chat`: a page at /chat/:slug and its embed). Any of them.
 */
export const publishSettingsSchema = z
  .strictObject({
    corsOrigins: originListSchema.nullable().optional(),
    publicTrace: z.boolean().optional(),
    mcp: z.boolean().optional(),
    /** The chat app at /chat/:slug (lib/server/chat/settings.ts). */
    chat: chatSettingsSchema.optional(),
    /** The evaluation gate every publish passes (lib/server/evaluations/publish-gate.ts); null removes it. */
    gate: gateSchema.nullable().optional(),
  })
  .refine(
    (v) =>
      v.corsOrigins !== undefined ||
      v.publicTrace !== undefined ||
      v.mcp !== undefined ||
      v.chat !== undefined ||
      v.gate !== undefined,
    {
      message: 'give corsOrigins, publicTrace, mcp, chat, gate or several of them',
      path: ['corsOrigins'],
    },
  );

export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s.slice(0, SLUG_MAX - 4).replace(/-+$/, '') || 'workflow';
}

export const endpointPath = (slug: string) => `/api/v1/workflows/${slug}/run`;
/** The MCP server's one endpoint (Streamable HTTP): every opted-in workflow a key may run is a tool there. */
export const MCP_PATH = '/api/mcp';

/** The first of base, base-2, base-3, … that no workflow uses. */
async function freeSlug(app: App, base: string): Promise<string> {
  const taken = new Set(await app.store.slugsStartingWith(base));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/**
 * The draft's graph with every call of another workflow pinned to the child's version (see the header), and without
 * the editor's pinned data and breakpoints (pinned-data.ts: a published run always runs every node).
 */
async function pinChildVersions(app: App, wf: WorkflowRecord): Promise<Graph> {
  const graph = withoutTestData(wf.graph);
  const calls = workflowCallsOf(graph);
  if (!calls.length) return graph;
  const cycles = await workflowCallCycles(app.store, wf.workspaceId, wf.id, graph);
  if (cycles.length)
    throw new WorkflowInvalidError(cycles[0].code, `the draft cannot be published: ${cycles[0].message}`, {
      path: `graph.${cycles[0].path}`,
    });
  for (const call of calls) {
    const path = `graph.${call.path}`;
    const child = await app.store.getWorkflow(call.workflowId, wf.workspaceId);
    if (!child)
      throw new PaiError('CHILD_WORKFLOW_NOT_FOUND', `the called workflow ${call.workflowId} does not exist here`, {
        path,
      });
    let version: number;
    if (typeof call.version === 'number') {
      if (!(await app.store.getVersionByNumber(child.id, call.version)))
        throw new PaiError(
          'CHILD_VERSION_NOT_FOUND',
          `the called workflow "${child.name}" has no version ${call.version}`,
          { path },
        );
      version = call.version;
    } else {
      const current = child.currentVersionId ? await app.store.getVersion(child.currentVersionId) : null;
      if (!current)
        throw new PaiError(
          'CHILD_NOT_PUBLISHED',
          `the called workflow "${child.name}" (${child.id}) is not published; publish it first`,
          { path, details: { workflowId: child.id } },
        );
      version = current.version;
    }
    call.holder.pinnedVersion = version;
  }
  return graph;
}

export async function publishWorkflow(
  app: App,
  wf: WorkflowRecord,
  requestedSlug?: string,
): Promise<{ workflow: WorkflowRecord; version: WorkflowVersionRecord }> {
  if (requestedSlug && wf.slug && requestedSlug !== wf.slug) {
    throw new PaiError('SLUG_IMMUTABLE', `this workflow is published as "${wf.slug}"; a slug cannot change once set`, {
      path: 'slug',
    });
  }
  const v = validateGraph(wf.graph, app.registry, wf.engine);
  if (!v.ok) {
    const first = v.errors[0];
    throw new WorkflowInvalidError(
      first.code,
      `the draft cannot be published (${v.errors.length} problem${v.errors.length > 1 ? 's' : ''}): ${first.message}`,
      {
        path: `graph.${first.path}`,
        details: { ...first.details, errors: v.errors.map((p) => ({ ...p, path: `graph.${p.path}` })) },
      },
    );
  }
  const graph = await pinChildVersions(app, wf);
  // Two publishes at once race for the same version number, and two workflows for the same slug: the loser's
  // transaction writes nothing and is retried with fresh numbers.
  for (let attempt = 0; ; attempt++) {
    const slug = wf.slug ?? requestedSlug ?? (await freeSlug(app, slugify(wf.name)));
    try {
      const out = await app.store.publishVersion(wf.id, {
        id: `ver_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        graph,
        engine: wf.engine,
        slug,
      });
      if (!out) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${wf.id} not found`);
      return out;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const owner = await app.store.getWorkflowBySlug(slug);
      if (requestedSlug && owner && owner.id !== wf.id)
        throw new PaiError('SLUG_TAKEN', `the slug "${slug}" is used by another workflow`, {
          path: 'slug',
        });
      if (attempt >= 5)
        throw new PaiError('PUBLISH_CONFLICT', 'the workflow is being published concurrently; try again');
      // Keep the graph that was validated; only the slug may have been set meanwhile.
      wf = { ...wf, slug: (await app.store.getWorkflow(wf.id))?.slug ?? wf.slug };
    }
  }
}

export function presentPublished(origin: string, workflow: WorkflowRecord, version: WorkflowVersionRecord | null) {
  const slug = workflow.slug;
  return {
    published: !!(version && workflow.currentVersionId === version.id),
    slug,
    version: version?.version ?? null,
    versionId: version?.id ?? null,
    endpoint: slug ? `${origin}${endpointPath(slug)}` : null,
    openapiUrl: slug ? `${origin}/api/v1/workflows/${slug}/openapi.json` : null,
    /** Browser origins allowed to call the endpoint; null: the server default, `corsDefault` (CORS_ORIGINS). */
    corsOrigins: workflow.corsOrigins,
    corsDefault: ((d) => (d === '*' ? '*' : [...d]))(corsOrigins()),
    /** API-key holders may read published runs' node trace (statuses, timings, usage; no node inputs or outputs). */
    publicTrace: workflow.publicTrace,
    /** Offered as a tool by the MCP server while published (the key holders' MCP clients call it). */
    mcp: workflow.mcp,
    mcpUrl: `${origin}${MCP_PATH}`,
    /** The chat app: settings (never its code), page URL and the embed snippet for other sites. */
    chat: presentChat(origin, workflow),
  };
}

/** Every version, newest first, each with what the draft changed since it. */
export async function listVersions(app: App, wf: WorkflowRecord) {
  const versions = await app.store.listVersions(wf.id);
  return versions.map((v) => ({
    id: v.id,
    version: v.version,
    engine: v.engine,
    createdAt: v.createdAt,
    current: v.id === wf.currentVersionId,
    nodeCount: v.graph.nodes.length,
    draftChanges: diffGraphs({ ...v, graph: withoutPins(v.graph) }, { ...wf, graph: withoutTestData(wf.graph) }),
  }));
}

export async function getVersionOr404(app: App, wf: WorkflowRecord, raw: string): Promise<WorkflowVersionRecord> {
  const n = Number(raw);
  const v = Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 ? await app.store.getVersionByNumber(wf.id, n) : null;
  if (!v)
    throw new PaiError('VERSION_NOT_FOUND', `workflow ${wf.id} has no version ${raw}`, {
      path: 'version',
    });
  return v;
}

/** Makes `version` current (publishing the workflow again if it was unpublished). */
export async function rollbackTo(
  app: App,
  wf: WorkflowRecord,
  version: WorkflowVersionRecord,
): Promise<WorkflowRecord> {
  // The workflow exists; its state forbids the change: 409, not the 404 of an unknown endpoint.
  if (!wf.slug) throw answerWith(new PaiError('NOT_PUBLISHED', 'the workflow has never been published'), 409);
  const updated = await app.store.setCurrentVersion(wf.id, version.id);
  if (!updated) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${wf.id} not found`);
  return updated;
}
