/**
 * Row ↔ record mapping shared by the Prisma stores, and the jsonb-safety of values on their way in.
 */
import type { ErrorJson } from '../../errors';
import type { TraceEvent } from '../../events/types';
import type { EngineChoice, EngineKind, Graph } from '../../graph/schema';
import type {
  NodeRunRecord,
  RunDebug,
  RunPatch,
  RunRecord,
  RunStatus,
  RunTriggerKind,
  WorkflowRecord,
  WorkflowVersionRecord,
} from '../types';
import type { ApiKeyRecord } from '../publishing';
import type { ChatAppPublicSettings } from '../chat';
import { Prisma } from './generated/client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of several tables and raw queries
export type Row = Record<string, any>;
export const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

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
/** Whether JSON text can go to a jsonb column as it is (no escaped NUL or lone surrogate, which jsonb refuses). */
export const isPgSafeJson = (text: string) => !UNSAFE_JSON.test(text);
/** JSON text safe for a jsonb parameter. */
export function pgJson(v: unknown): string {
  const text = JSON.stringify(v);
  return UNSAFE_JSON.test(text) ? JSON.stringify(v, pgSafeReplacer) : text;
}
/** A value safe to hand to Prisma for a Json column. */
export function pgSafe<T>(v: T): T {
  if (v === undefined || v === null) return v;
  const text = JSON.stringify(v);
  return text !== undefined && UNSAFE_JSON.test(text) ? (JSON.parse(JSON.stringify(v, pgSafeReplacer)) as T) : v;
}
export const json = (v: unknown) =>
  v === undefined ? Prisma.DbNull : v === null ? Prisma.DbNull : (pgSafe(v) as Prisma.InputJsonValue);

/** The chat app's settings without their secrets (codeHash, sessionSecret): those only ChatStore.secretsOf reads. */
function publicChat(v: unknown): ChatAppPublicSettings | null {
  if (!v || typeof v !== 'object') return null;
  const c = v as Record<string, unknown>;
  return {
    enabled: c.enabled === true,
    title: typeof c.title === 'string' ? c.title : null,
    welcome: typeof c.welcome === 'string' ? c.welcome : null,
    suggestions: Array.isArray(c.suggestions) ? c.suggestions.filter((x): x is string => typeof x === 'string') : [],
    access: c.access === 'code' ? 'code' : 'public',
    // Stored before the setting existed: any site, as the embed then allowed.
    embedOrigins: Array.isArray(c.embedOrigins)
      ? c.embedOrigins.filter((x): x is string => typeof x === 'string')
      : ['*'],
    historyMaxTokens:
      typeof c.historyMaxTokens === 'number' && Number.isInteger(c.historyMaxTokens) ? c.historyMaxTokens : null,
  };
}

export function toWorkflow(r: Row): WorkflowRecord {
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    name: r.name,
    description: r.description,
    graph: r.graph as Graph,
    engine: r.engine as EngineChoice,
    revision: r.revision,
    slug: r.slug ?? null,
    currentVersionId: r.currentVersionId ?? null,
    corsOrigins: (r.corsOrigins ?? null) as string[] | null,
    publicTrace: r.publicTrace === true,
    mcp: r.mcp === true,
    chat: publicChat(r.chat),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

export function toVersion(r: Row): WorkflowVersionRecord {
  return {
    id: r.id,
    workflowId: r.workflowId,
    version: r.version,
    graph: r.graph as Graph,
    engine: r.engine as EngineChoice,
    createdAt: iso(r.createdAt)!,
  };
}

export function toApiKey(r: Row): ApiKeyRecord {
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

export function toRun(r: Row): RunRecord {
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
    debug: (r.debug ?? null) as RunDebug | null,
    triggerKind: (r.triggerKind ?? null) as RunTriggerKind | null,
    triggerId: r.triggerId ?? null,
  };
}

export function toNodeRun(r: Row): NodeRunRecord {
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

export function toEvent(r: Row): TraceEvent {
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

export function runPatchData(p: RunPatch): Prisma.RunUpdateManyMutationInput {
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
  if (p.debug !== undefined) d.debug = json(p.debug);
  return d;
}
