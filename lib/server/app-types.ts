/**
 * What the app offers its routes and services: the type of `getApp()`'s answer. It is built by createApp
 * (./app.ts); everything kept in the database is reached through `stores` (engine/store/stores.ts), never a
 * database client.
 */
import type { AgentServices } from '@/engine/node-kit/agent-services';
import type { Artifacts } from '@/engine/artifacts/artifacts';
import type { EventBus } from '@/engine/events/types';
import type { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { LlmResolver } from '@/engine/llm/types';
import type { NodeRegistry } from '@/engine/node-kit/registry';
import type { QueueMode } from '@/engine/queue/queue-mode';
import type { RunManager } from '@/engine/runtime/run-manager';
import type { AppStore } from '@/engine/store/publishing';
import type { Stores } from '@/engine/store/app/stores';
import type { Accounts } from './auth/accounts';
import type { AppConfig } from './config';
import type { CredentialVault } from './credentials/credentials';
import type { ProviderCheck } from './credentials/provider-check';
import type { SkillsService } from './agent/skills';
import type { EvaluationRecord } from '@/engine/store/evaluations';

export interface App {
  config: AppConfig;
  /** Runs, workflows and what publishing keeps (the same object as `stores.runs`). */
  store: AppStore;
  /** Everything kept in the database, as interfaces (engine/store/stores.ts). */
  stores: Stores;
  bus: EventBus;
  registry: NodeRegistry;
  runs: RunManager;
  knowledge: KnowledgeBaseService;
  /** The model providers runs use (the demo model, OPENAI_API_KEY, or a credential's settings): evaluation judges. */
  llm: LlmResolver;
  accounts: Accounts;
  credentials: CredentialVault;
  /** Asks a credential's model provider whether its key works and which models it has. */
  providers: ProviderCheck;
  /** Files runs produced (speech, images): the blob store and their rows (engine/artifacts/). */
  artifacts: Artifacts;
  /** Agent skills: SKILLS_DIR and the workspaces' uploads. */
  skills: SkillsService;
  /** The Agent node's services (MCP servers, skills, memory), for routes that list what an agent may use. */
  agent: AgentServices;
  /**
   * Queue mode (REDIS_URL + QUEUE_MODE=1 or WORKERS=n, and every worker process); null: runs execute in this process.
   */
  queue: QueueMode | null;
  /** Drives evaluations: their rows' runs, scores and take-over after a crash (evaluations/evaluation-runner.ts). */
  evaluations: AppEvaluations;
  /** Fires schedule triggers (SCHEDULER=0 or a worker process: null). */
  scheduler: AppScheduler | null;
  /** Which implementation each part uses, and which parts are down; no paths or hosts (see healthDetails). */
  health(): AppHealth;
  /** Where each part lives (data folder, hosts): for admins only. */
  healthDetails(): Record<string, string | null>;
  close(): Promise<void>;
}

/**
 * What the app keeps of its scheduler (triggers/scheduler.ts). Declared here, not imported from there: the
 * scheduler starts runs through the App, so its module needs this one.
 */
export interface AppScheduler {
  /** Fires every due schedule once; answers how many it fired. */
  look(): Promise<number>;
  close(): Promise<void>;
}

/**
 * What the app keeps of its evaluation runner (evaluations/evaluation-runner.ts). Declared here, not imported from
 * there: the runner starts its rows' runs through the App, so its module needs this one.
 */
export interface AppEvaluations {
  /** Drives the evaluation in this process, unless this process drives it already. */
  drive(ev: Pick<EvaluationRecord, 'id' | 'workspaceId'>): void;
  /** Takes over the evaluations no process drives (at start-up, and periodically on PostgreSQL). */
  resumeOrphans(opts: { everyActive: boolean; periodic: boolean }): Promise<void>;
  /** Cancels an active evaluation; false when it had ended already. */
  cancel(ev: EvaluationRecord): Promise<boolean>;
  /** The evaluation once it has ended (or as it is when `timeoutMs` passes). */
  settled(ev: Pick<EvaluationRecord, 'id' | 'workspaceId'>, timeoutMs: number): Promise<EvaluationRecord>;
  close(): Promise<void>;
}

export interface AppHealth {
  db: string;
  bus: string;
  search: string;
  llm: string;
  workers: string;
  /** Parts that do not work right now, with the reason (the route adds `db` when the database does not answer). */
  down: Record<string, string>;
}
