/**
 * What the store keeps for publishing a workflow: its numbered versions and slug, the API keys of its published
 * endpoint and the endpoint's settings; with the workflow's callback signing secret and the names already in use
 * (for a free name on import). Implemented on PGlite and PostgreSQL (engine/store/prisma/).
 */
import type { EngineChoice, Graph } from '../graph/schema';
import type { ChatAppSettings } from './chat';
import type { RunRecord, RunStore, WorkflowRecord, WorkflowStore, WorkflowVersionRecord } from './types';

/** What the published endpoint needs of a workflow (not its draft graph). */
export type PublishedWorkflow = Pick<
  WorkflowRecord,
  'id' | 'name' | 'engine' | 'slug' | 'currentVersionId' | 'corsOrigins' | 'mcp'
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

export interface PublishingStore {
  getWorkflowBySlug(slug: string): Promise<WorkflowRecord | null>;
  /** Slugs in use that start with `base` (to pick a free `base`, `base-2`, …). */
  slugsStartingWith(base: string): Promise<string[]>;
  listVersions(workflowId: string): Promise<WorkflowVersionRecord[]>;
  getVersionByNumber(workflowId: string, version: number): Promise<WorkflowVersionRecord | null>;
  /**
   * Snapshots `graph` + `engine` as version max+1 and makes it current; sets `slug` only if the workflow has none,
   * all in one transaction. Null when the workflow is gone. A concurrent publish (same version number) or a taken
   * slug fails as a unique violation (isUniqueViolation, ./errors.ts) with nothing written: the caller retries.
   */
  publishVersion(
    workflowId: string,
    v: { id: string; graph: Graph; engine: EngineChoice; slug: string },
  ): Promise<{ workflow: WorkflowRecord; version: WorkflowVersionRecord } | null>;
  /** Points the endpoint at a version of this workflow, or unpublishes it (null). The slug stays. */
  setCurrentVersion(workflowId: string, versionId: string | null): Promise<WorkflowRecord | null>;
  findRunByIdempotencyKey(workflowId: string, idempotencyKey: string): Promise<RunRecord | null>;
  createApiKey(k: {
    id: string;
    workflowId: string;
    name: string;
    prefix: string;
    hash: string;
  }): Promise<ApiKeyRecord>;
  listApiKeys(workflowId: string): Promise<ApiKeyRecord[]>;
  /**
   * The published endpoint's one read per request: the key whose sha256 is `hash` (revoked ones too: the caller
   * decides) and the workflow published under `slug`, either null, in one round trip.
   */
  findKeyAndPublished(
    hash: string,
    slug: string,
  ): Promise<{ key: (ApiKeyRecord & { hash: string }) | null; workflow: PublishedWorkflow | null }>;
  /**
   * The CORS origins of the workflow published under `slug`, or of the workflow `runId` belongs to: the list, null
   * for the server default, undefined when there is no such workflow or run.
   */
  corsOriginsFor(where: { slug: string } | { runId: string }): Promise<string[] | null | undefined>;
  /** Settings that apply to every version: CORS origins, public node traces, being an MCP tool, the chat app. */
  setPublishSettings(
    workflowId: string,
    settings: { corsOrigins?: string[] | null; publicTrace?: boolean; mcp?: boolean; chat?: ChatAppSettings },
  ): Promise<WorkflowRecord | null>;
  /** The key whose sha256 is `hash` (revoked ones too: the caller decides), with the stored hash. */
  findApiKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null>;
  /** Revokes a key (idempotent: the first revocation time is kept). Null when no such key (in that workspace). */
  revokeApiKey(id: string, workspaceId?: string): Promise<ApiKeyRecord | null>;
  touchApiKey(id: string, at: Date): Promise<void>;
}

/** Runs, workflows and what publishing them keeps: the store `app.store` is. */
export type AppStore = RunStore & WorkflowStore & PublishingStore;

/**
 * A workflow's callback signing secret, as sealed text (the caller seals and unseals it). Written without touching
 * the workflow's `updatedAt` (the "last edited" of the lists).
 */
export interface CallbackSecretStore {
  /** The sealed secret; null when none was made yet; undefined when there is no such workflow. */
  get(workflowId: string): Promise<string | null | undefined>;
  /** Stores it only if the workflow has none yet: false when another one was there first (or no such workflow). */
  setIfUnset(workflowId: string, sealed: string): Promise<boolean>;
  /** Replaces it: false when there is no such workflow. */
  replace(workflowId: string, sealed: string): Promise<boolean>;
}

/** The names workflows of a workspace use (names are not unique: a free one is picked by the caller). */
export interface WorkflowNames {
  /** Names of the workspace's workflows that start with `prefix`. */
  startingWith(workspaceId: string, prefix: string): Promise<string[]>;
}
