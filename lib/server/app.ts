/**
 * Builds the app's services once per process from the environment: the stores (PGlite or PostgreSQL), event bus,
 * node registry, LLM resolver, SSRF-guarded fetch and the run manager. Route handlers call `getApp()`; what it
 * answers is the App type (./app-types.ts).
 * The composition root: the settings are read here, once, and handed to what is built (./engine-settings.ts); the
 * engine never reads them itself.
 * Nothing here runs at import time, so `next build` never opens the database.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import { RedisEventBus } from '@/engine/events/redis-bus';
import type { EventBus } from '@/engine/events/types';
import { AGENT_TEAM_EXAMPLE } from '@/engine/examples/agent-team';
import { SUPPORT_TRIAGE_EXAMPLE } from '@/engine/examples/support-triage';
import { SUPPORT_TRIAGE_CASES } from '@/engine/examples/support-triage-cases';
import { createLlmResolver, describeLlm } from '@/engine/llm/resolve-provider';
import { closeCpuPools } from '@/engine/cpu/pool';
import { useCpuLimits } from '@/engine/cpu/limits';
import { createArtifacts } from '@/engine/artifacts/create-artifacts';
import { createGuardedFetch, parseAllowlist } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { lazyLangGraphExecutor } from '@/engine/runtime/lazy-langgraph-executor';
import { openStores } from '@/engine/store/app/open-stores';
import type { AppStore } from '@/engine/store/publishing';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { readQueueConfig } from '@/engine/queue/config';
import type { QueueRole } from '@/engine/queue/queue-mode';
import type { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { KnowledgeService } from '@/engine/knowledge/types';
import { loadSettings } from '@/engine/config/settings';
import { appConfigOf, type AppConfig } from './config';
import { engineSettingsOf } from './engine-settings';
import { createAgentServices } from './agent/create-agent-services';
import { createKnowledge, refuseEmbeddedKnowledgeUnderQueue } from './knowledge/create-knowledge';
import { envSecrets } from './credentials/env-secrets';
import { Accounts } from './auth/accounts';
import { CredentialVault } from './credentials/credentials';
import { ProviderCheck } from './credentials/provider-check';
import { loadMasterKey } from './credentials/master-key';
import { SkillsService } from './agent/skills';
import { startTelemetry } from './runs/telemetry';
import { Scheduler } from './triggers/scheduler';
import { EvaluationRunner } from './evaluations/evaluation-runner';
import { chatHistoryResolver } from './chat/history';
import { chatConversationVariables } from './chat/conversation-variables';
import type { App } from './app-types';

/**
 * `config`: default from the settings (a test may give its own). `role: 'worker'`: a queue worker process
 * (scripts/worker.ts) — it executes queued runs and seeds nothing.
 */
export async function createApp(config?: AppConfig, opts: { role?: QueueRole } = {}): Promise<App> {
  // Every variable is validated before anything is opened: a bad value stops start-up with INVALID_CONFIG naming it.
  const settings = loadSettings();
  config ??= appConfigOf(settings);
  const engine = engineSettingsOf(settings);
  // The CPU pools are one set per process: so are their limits (regexes, templates, documents, embeddings).
  useCpuLimits(engine.cpuLimits);
  const role = opts.role ?? 'app';
  // Queue mode: the app enqueues runs (BullMQ), worker processes execute them. Needs Redis and PostgreSQL: checked
  // before anything is opened.
  const qcfg = { ...readQueueConfig(settings), redisUrl: config.redisUrl };
  const qm = role === 'worker' || qcfg.enabled ? await import('@/engine/queue/queue-mode') : null;
  qm?.checkQueueMode({ config: qcfg, role, dbKind: config.databaseUrl ? 'postgres' : 'pglite' });
  const stores = await openStores({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
    ...engine.stores,
  });
  // Queue workers cannot read the embedded knowledge index (it lives in this process's data folder).
  if (qm && role === 'app' && !config.elasticsearchUrl)
    await refuseEmbeddedKnowledgeUnderQueue(stores).catch(async (e) => {
      await stores.close();
      throw e;
    });
  const store = stores.runs;
  const bus: EventBus = config.redisUrl
    ? new RedisEventBus(config.redisUrl, {
        prefix: settings.REDIS_PREFIX,
        ttlSeconds: settings.EVENTS_RETENTION_S,
      })
    : new InProcessEventBus();
  const queue =
    qm?.openQueueMode({
      config: qcfg,
      role,
      dbKind: stores.kind,
      store,
      bus,
      autoResume: config.autoResumeInterrupted,
    }) ?? null;
  const registry = createDefaultRegistry();
  // ARTIFACTS_S3_* or a folder under DATA_DIR; a partial S3 setting stops start-up here (INVALID_CONFIG).
  const artifacts = createArtifacts(settings, config.dataDir, stores.artifacts);
  const fetch = createGuardedFetch({ allowlist: parseAllowlist(config.httpAllowlist) });
  const credentials = new CredentialVault(
    stores,
    loadMasterKey(settings.PAIFLOW_ENCRYPTION_KEY, config.dataDir),
    (runId) => store.workspaceOfRun(runId),
  );
  // The embedded knowledge index is single-process and stays with the app; a worker reaches knowledge only via
  // Elasticsearch.
  const knowledge =
    role === 'worker' && !config.elasticsearchUrl && qm
      ? qm.knowledgeOnlyInApp<KnowledgeBaseService>()
      : await createKnowledge(config, stores, settings, { vault: credentials, fetch }, { queueMode: !!queue });
  const llm = createLlmResolver(
    { OPENAI_API_KEY: config.openaiApiKey, OPENAI_BASE_URL: config.openaiBaseUrl, MODEL_PRICES: settings.MODEL_PRICES },
    { guardedFetch: fetch },
  );
  const agent = createAgentServices(config, stores, settings);
  const skills = new SkillsService(stores, settings.SKILLS_DIR);
  agent.services.skills = skills.library;
  const accounts = new Accounts(stores, {
    idleSeconds: config.sessionIdleSeconds,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  // OTEL_EXPORTER_OTLP_ENDPOINT: the runs this process executes are exported as traces (a worker exports its own).
  const telemetry = await startTelemetry(settings, bus);
  const runs = new RunManager({
    store: qm && queue ? qm.withoutQueuedRecovery(store) : store,
    workflows: store,
    bus,
    registry,
    services: {
      llm,
      fetch,
      secrets: envSecrets(),
      knowledge: knowledgeOfRuns(knowledge, store),
      agent: agent.services,
      credentials,
      artifacts,
      // Used by nodes without being handed to them (the LLM resolver's fallback key): an echo of it is never shown.
      knownSecrets: config.openaiApiKey ? [config.openaiApiKey] : [],
      // A chat turn's history is stored once, in its conversation; its runs keep a reference (chat/history.ts).
      inputRefs: chatHistoryResolver(stores.chat),
      // A chat turn's run reads and writes its conversation's variables (chat/conversation-variables.ts).
      conversations: chatConversationVariables(stores.chat),
    },
    executors: { langgraph: lazyLangGraphExecutor({ loopMaxIterations: engine.loopMaxIterations }) },
    limits: engine.runs,
    ...queue?.runManagerOptions(),
  });
  agent.attach(runs);

  // The embedded store is single-process (lock file), so every run still "running" at start-up is an orphan.
  const interrupted = await runs.recover(stores.kind === 'pglite' ? new Date(Date.now() + 1000) : undefined);
  if (config.autoResumeInterrupted)
    for (const id of interrupted) await (queue ? queue.resumeLater(id) : runs.resume(id)).catch(() => {});
  // Multi-process PostgreSQL deployments: keep reaping runs whose owner stopped heart-beating.
  const reaper =
    stores.kind === 'postgres'
      ? setInterval(
          () => void (queue ? queue.reap(runs) : runs.recover().catch(() => {})),
          queue?.config.reaperMs ?? 15_000,
        )
      : undefined;
  reaper?.unref?.();

  // Retention and orphaned blobs (deleted runs): swept hourly by the app, never by a worker.
  if (role === 'app')
    artifacts.startSweeper(ARTIFACT_SWEEP_MS, (e) =>
      console.warn('[paiflow] artifact sweep failed:', (e as Error)?.message ?? e),
    );
  if (config.seedExample && role === 'app') await seedExamples(stores);
  if (config.owner && role === 'app' && !(await accounts.hasUsers()))
    await accounts.setup(config.owner).catch((e) => {
      if ((e as { code?: string }).code !== 'SETUP_DONE') throw e;
    });
  // Role app: forks WORKERS worker processes. A worker process starts taking jobs itself (scripts/worker.ts).
  if (queue && role === 'app') await queue.start(runs);

  const app: App = {
    config,
    store,
    stores,
    bus,
    registry,
    runs,
    knowledge,
    llm,
    accounts,
    credentials,
    providers: new ProviderCheck(credentials, fetch),
    artifacts,
    skills,
    agent: agent.services,
    queue,
    // Given the app itself right below: its drivers start runs and score them through it.
    evaluations: undefined as unknown as EvaluationRunner,
    scheduler: null,
    health: () => {
      const busStatus = bus.status();
      const down: Record<string, string> = busStatus.ok ? {} : { bus: busStatus.reason ?? 'down' };
      return {
        db: stores.describe,
        bus: bus.kind,
        search: knowledge.describeStore(),
        llm: describeLlm({ OPENAI_API_KEY: config.openaiApiKey, OPENAI_BASE_URL: config.openaiBaseUrl }),
        workers: queue ? `queue (bullmq${qcfg.workers > 0 ? `, ${qcfg.workers} worker processes` : ''})` : 'in-process',
        down,
      };
    },
    healthDetails: () => ({
      dataDir: stores.kind === 'pglite' ? path.resolve(config.dataDir) : null,
      database: config.databaseUrl ? hostOf(config.databaseUrl) : null,
      redis: config.redisUrl ? hostOf(config.redisUrl) : null,
      search: knowledge.storeLocation(),
      llm: describeLlm({ OPENAI_API_KEY: config.openaiApiKey, OPENAI_BASE_URL: config.openaiBaseUrl }, { host: true }),
    }),
    async close() {
      if (reaper) clearInterval(reaper);
      await app.scheduler?.close();
      await app.evaluations.close();
      await queue?.close();
      await runs.close();
      await artifacts.close();
      await telemetry?.close();
      await agent.close();
      await knowledge.close();
      await closeCpuPools();
      await bus.close();
      await stores.close();
    },
  };
  app.evaluations = new EvaluationRunner(app, {
    staleMs: settings.EVALUATION_STALE_MS,
    heartbeatMs: Math.max(100, Math.floor(settings.EVALUATION_STALE_MS / 6)),
    rowsInFlight: {
      server: settings.EVALUATION_ROWS_IN_FLIGHT,
      perWorkspace: settings.EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE,
    },
  });
  // Evaluations a stopped process was driving resume here (rows scored before the stop are not run again).
  if (role === 'app')
    await app.evaluations.resumeOrphans({
      everyActive: stores.kind === 'pglite',
      periodic: stores.kind === 'postgres',
    });
  // Every app replica may fire schedules: a tick still starts one run (lib/server/triggers/scheduler.ts).
  if (role === 'app' && settings.SCHEDULER) {
    const scheduler = new Scheduler(app, {
      pollMs: settings.SCHEDULER_POLL_MS,
      misfireGraceMs: settings.SCHEDULER_MISFIRE_GRACE_MS,
    });
    scheduler.start();
    app.scheduler = scheduler;
  }
  return app;
}

const ARTIFACT_SWEEP_MS = 60 * 60_000;

/** host:port of a service URL (never its credentials or path). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unparsable URL';
  }
}

/**
 * Seeds the example workflows on a fresh database only (deleting them later does not bring them back), into the
 * default workspace, which the owner gets at setup.
 */
async function seedExamples(stores: Stores): Promise<void> {
  const seeded = await stores.seedOnce(
    [SUPPORT_TRIAGE_EXAMPLE, AGENT_TEAM_EXAMPLE].map((example) => ({
      id: `wf_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      name: example.name,
      description: example.description,
      graph: example.graph,
      engine: 'auto' as const,
      workspaceId: DEFAULT_WORKSPACE_ID,
    })),
  );
  // The example's evaluation dataset: the Evaluate tab of the example runs it offline.
  if (seeded)
    await stores.datasets.create({
      id: `ds_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      workspaceId: DEFAULT_WORKSPACE_ID,
      ...SUPPORT_TRIAGE_CASES,
    });
}

/** Knowledge search for nodes: a run finds only the knowledge bases of its own workspace. */
function knowledgeOfRuns(knowledge: KnowledgeBaseService, store: AppStore): KnowledgeService {
  return {
    async search(kbId, req, opts = {}) {
      const workspaceId = (opts.runId && (await store.workspaceOfRun(opts.runId))) || DEFAULT_WORKSPACE_ID;
      return knowledge.search(kbId, req, { signal: opts.signal, workspaceId });
    },
  };
}

const g = globalThis as unknown as { __paiflowApp?: Promise<App> };

/**
 * The process-wide app (survives Next.js dev hot reloads). A failed start is not cached, so the next request retries.
 */
export function getApp(): Promise<App> {
  if (!g.__paiflowApp) {
    g.__paiflowApp = createApp().catch((e) => {
      g.__paiflowApp = undefined;
      throw e;
    });
  }
  return g.__paiflowApp;
}
