/**
 * Everything the app keeps in its database, as interfaces: the app (lib/server/app.ts) and its services see these,
 * never a database client. One implementation serves both databases — PGlite (embedded) and PostgreSQL — and each
 * interface has one conformance suite run on both (test/store/). Open them with openStores (./open-stores.ts).
 */
import type { SkillUploadStore } from '../../agent/skills/types';
import type { MemoryStore } from '../../node-kit/agent-services';
import type { ArtifactStore } from '../../artifacts/types';
import type { KnowledgeCatalog } from '../../knowledge/catalog';
import type { AccountRepository, SignInAttempts } from '../accounts';
import type { RunAnalyticsStore } from '../analytics';
import type { AuditLog } from '../audit';
import type { ChatStore } from '../chat';
import type { CheckpointStore } from '../checkpoints';
import type { CredentialRepository } from '../credentials';
import type { DatasetStore } from '../datasets';
import type { EvaluationStore } from '../evaluations';
import type { AppStore, CallbackSecretStore, WorkflowNames } from '../publishing';
import type { TriggerRepository } from '../triggers';
import type { NewWorkflow } from '../types';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Stores {
  /** `pglite`: embedded and single-process (a lock file); `postgres`: shared by every replica and worker. */
  readonly kind: DatabaseKind;
  /** A label for /api/health: "postgres" or "pglite". */
  readonly describe: string;
  /** Runs, workflows, their versions, slugs and API keys. */
  readonly runs: AppStore;
  readonly triggers: TriggerRepository;
  readonly callbackSecrets: CallbackSecretStore;
  readonly workflowNames: WorkflowNames;
  /** Users, sessions, personal access tokens, workspaces, memberships, invitations. */
  readonly accounts: AccountRepository;
  /** Sign-in attempts per account and client address (throttling). */
  readonly signInAttempts: SignInAttempts;
  readonly audit: AuditLog;
  readonly credentials: CredentialRepository;
  /** Run lists, stats, spend, waiting runs: reports computed in the database. */
  readonly analytics: RunAnalyticsStore;
  /** Agent skills uploaded to a workspace (SKILLS_DIR's are read from the folder). */
  readonly skills: SkillUploadStore;
  /** Agents' long-term memories. */
  readonly memory: MemoryStore;
  /** Knowledge bases and their documents' indexing status (the chunks are in the knowledge index). */
  readonly knowledgeCatalog: KnowledgeCatalog;
  /** The rows of files runs produced (their bytes are in the blob store). */
  readonly artifacts: ArtifactStore;
  /** Evaluation datasets, their rows kept per version. */
  readonly datasets: DatasetStore;
  /** Evaluations of workflows on datasets, row by row, and publish gates. */
  readonly evaluations: EvaluationStore;
  /** Chat apps' conversations and their messages (with feedback). */
  readonly chat: ChatStore;
  /** LangGraph's checkpoints (the state-graph engine's, and any LangGraph.js program's given the saver). */
  readonly checkpoints: CheckpointStore;
  /**
   * Creates `workflows` in one transaction the first time a database is seeded; later calls do nothing, also after
   * the workflows were deleted. True when it seeded.
   */
  seedOnce(workflows: NewWorkflow[]): Promise<boolean>;
  /** Resolves when the database answers a trivial query; rejects with the driver's error when it does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
