/**
 * Typed calls for publishing: endpoint status, versions, API keys, per-workflow CORS origins, trace sharing and the
 * MCP opt-in and the chat app.
 */
import type { z } from 'zod';
import { call } from '@/components/api/client';
import type { EngineChoice, Graph } from '@/components/api/types';
import type { gateSchema } from '@/lib/server/evaluations/evaluation-schemas';
import type { GateOutcome } from '@/lib/server/evaluations/publish-gate';
import type { EvaluationSummary } from '@/lib/server/evaluations/summary';
import type { GraphDiff } from '@/lib/server/workflows/graph-diff';
import type { Comparison, ScorerBody } from '../evaluate/evaluate-api';

export interface PublishStatus {
  published: boolean;
  slug: string | null;
  version: number | null;
  versionId: string | null;
  endpoint: string | null;
  openapiUrl: string | null;
  /** Origins allowed to call the endpoint from a browser; null = the server default. */
  corsOrigins?: string[] | null;
  /** The server-wide default (CORS_ORIGINS). */
  corsDefault?: '*' | string[];
  /** API-key holders may read published runs' node trace (no node inputs or outputs). */
  publicTrace?: boolean;
  /** Offered as a tool by the MCP server (`mcpUrl`) to the workflow's API keys while published. */
  mcp?: boolean;
  mcpUrl?: string;
  /** The chat app at /chat/:slug and its embed snippet (never the access code). */
  chat?: {
    enabled: boolean;
    title: string | null;
    welcome: string | null;
    suggestions: string[];
    access: 'public' | 'code';
    hasCode: boolean;
    /** Sites that may frame the chat page: `["*"]` any, `[]` none but PaiFlow itself. */
    embedOrigins: string[];
    /** Tokens of earlier turns sent with each message; null: the server's default. */
    historyMaxTokens: number | null;
    url: string | null;
    embedSnippet: string | null;
  };
  /** The evaluation gate a publish must pass; null: none. */
  gate?: PublishGate | null;
}

/** The workflow's publish gate as PATCH …/publish `{ gate }` takes it: the server's schema (a type-only import). */
export type PublishGate = z.input<typeof gateSchema>;
export type { EvaluationSummary, ScorerBody };

/** What a 409 EVAL_GATE_FAILED carries besides its message (publish/route.ts answers a part of GateOutcome). */
export interface GateRefusal extends Pick<
  GateOutcome,
  'evaluationId' | 'baselineEvaluationId' | 'failures' | 'summary'
> {
  comparison: Pick<Comparison, 'scorers' | 'counts'> | null;
}

/** PATCH …/publish `{ chat }`: the code only when it is set or changed. */
export interface ChatAppSettingsInput {
  enabled: boolean;
  title?: string;
  welcome?: string;
  suggestions?: string[];
  access: 'public' | 'code';
  code?: string;
  embedOrigins?: string[];
  historyMaxTokens?: number | null;
}

/** What the draft changed since a version: the server's own type (a type-only import). */
export type { GraphDiff };

export interface VersionInfo {
  id: string;
  version: number;
  engine: EngineChoice | string;
  createdAt: string;
  current: boolean;
  nodeCount: number;
  draftChanges: GraphDiff;
}

export interface VersionSnapshot {
  id: string;
  version: number;
  engine: string;
  graph: Graph;
  createdAt: string;
  current: boolean;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export type NewApiKey = ApiKeyInfo & { key: string };

const wf = (id: string) => `/api/workflows/${encodeURIComponent(id)}`;

export const publishApi = {
  status: (id: string) => call<PublishStatus>('GET', `${wf(id)}/publish`),
  /** `force`: an owner publishes past the evaluation gate (audited). */
  publish: (id: string, slug?: string, force?: boolean) =>
    call<PublishStatus>('POST', `${wf(id)}/publish`, { ...(slug ? { slug } : {}), ...(force ? { force } : {}) }),
  setGate: (id: string, gate: PublishGate | null) => call<PublishStatus>('PATCH', `${wf(id)}/publish`, { gate }),
  unpublish: (id: string) => call<PublishStatus>('DELETE', `${wf(id)}/publish`),
  setCors: (id: string, corsOrigins: string[] | null) =>
    call<PublishStatus>('PATCH', `${wf(id)}/publish`, { corsOrigins }),
  setPublicTrace: (id: string, publicTrace: boolean) =>
    call<PublishStatus>('PATCH', `${wf(id)}/publish`, { publicTrace }),
  setMcp: (id: string, mcp: boolean) => call<PublishStatus>('PATCH', `${wf(id)}/publish`, { mcp }),
  setChat: (id: string, chat: ChatAppSettingsInput) => call<PublishStatus>('PATCH', `${wf(id)}/publish`, { chat }),
  /** Newest first. The route answers `{ …status, versions }`; a bare array is accepted too. */
  versions: async (id: string): Promise<VersionInfo[]> => {
    const res = await call<VersionInfo[] | { versions: VersionInfo[] }>('GET', `${wf(id)}/versions`);
    const list = Array.isArray(res) ? res : res.versions;
    return [...list].sort((a, b) => b.version - a.version);
  },
  version: (id: string, version: number) => call<VersionSnapshot>('GET', `${wf(id)}/versions/${version}`),
  rollback: (id: string, version: number) => call<PublishStatus>('POST', `${wf(id)}/versions/${version}/rollback`),
  keys: (id: string) => call<ApiKeyInfo[]>('GET', `${wf(id)}/api-keys`),
  createKey: (id: string, name?: string) => call<NewApiKey>('POST', `${wf(id)}/api-keys`, name ? { name } : {}),
  revokeKey: (keyId: string) => call<ApiKeyInfo>('DELETE', `/api/api-keys/${encodeURIComponent(keyId)}`),
};
