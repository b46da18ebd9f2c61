/**
 * Every environment variable PaiFlow reads, with its kind, default, range and meaning (docs/configuration.md is
 * generated from this list by `npm run docs`, and checked by
 * test/config/every-environment-variable-is-documented.test.ts). Defaults and accepted spellings are the ones the code
 * had before it was gathered here.
 *
 * Not listed, because PaiFlow itself does not read them:
 * - test and benchmark settings: TEST_DATABASE_URL, TEST_REDIS_URL, BENCH_*, PROBE_COUNTER_FILE, CRASH_ENGINE (read by
 *   test/ and bench/ only);
 * - tooling: CI, CHROMIUM_PATH (scripts/test-e2e.mjs), PRISMA_SCHEMA_ENGINE_BINARY (the database client's generator);
 * - read by libraries, set for them: NODE_ENV (Next.js, React; server.mjs sets it), NEXT_TELEMETRY_DISABLED (Next.js),
 *   CHECKPOINT_DISABLE (the database client);
 * - PAIFLOW_WORKER_INDEX: set for the worker processes the app forks (engine/queue/worker-processes.ts), not read;
 * - SECRET_<NAME> and SECRET_<NAME>_HOSTS: names chosen by workflows, read at the moment of sending and never held in
 *   the settings (lib/server/credentials/env-secrets.ts); they are in SECRET_VARIABLES below for the docs check.
 */
import { availableParallelism } from 'node:os';
import { parsePriceTableJson } from './price-table-schema';
import { parseOtlpHeaders } from '../telemetry/otlp-headers';
import { parsePublicUrl } from './public-url.mjs';
import { MIGRATIONS_FOLDER } from './migrations-folder';
import { flag, httpUrl, list, numeric, shaped, text, whole } from './kinds';
import { DEFAULT_SSO_ROLE, parseDefaultRole, parseIssuer, parseRoleMap, parseScopes, SSO_ROLES } from './sso-values';

/** setTimeout's largest delay: a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;
export const DEFAULT_KNOWLEDGE_EXACT_KNN_LIMIT = 20_000;

const is1 = (v: string) => v === '1';
const off = { default: false, on: is1, spelled: '1 (anything else: off)', shown: '—' };

/** Limits whose bad values always fell back to the default (engine/cpu/limits.ts): they still do, with a warning. */
const limit = (dflt: number, description: string, min = 1) =>
  whole({ default: dflt, min, lenient: true, description, note: ' (anything else: the default)' });
/**
 * The published API's limits: a positive number, else the default (as lib/server/publishing/v1-settings.ts always
 * read them).
 */
const positive = (dflt: number, description: string) =>
  numeric({ default: dflt, above: 0, lenient: true, description, note: ' (anything else: the default)' });

export const VARIABLES = {
  // Storage
  DATA_DIR: text({ default: './data', description: 'folder of the embedded database and knowledge index' }),
  DB_THREAD_SPIN_MS: numeric({
    default: 1,
    description: 'ms a database thread polls for its next request (≤ 0: never)',
  }),
  DB_EMBEDDED_BUFFERS_MB: whole({
    default: 32,
    min: 8,
    description: "MB of the embedded database's buffer cache (Postgres shared_buffers)",
  }),
  PG_WRITE_THREAD: flag({
    default: true,
    on: (v) => v !== '0',
    spelled: '0 (anything else: on)',
    description: "PostgreSQL's hot statements go through a thread of their own",
  }),
  DATABASE_URL: text({ sensitive: true, description: 'PostgreSQL connection string (unset: the embedded database)' }),
  DATABASE_SCHEMA: text({ shown: '`public`', computed: true, description: 'PostgreSQL schema' }),
  DATABASE_POOL_SIZE: numeric({ default: 10, min: 1, description: "connections in PaiFlow's PostgreSQL pools" }),
  SNAPSHOT_SYNC_COMMIT: flag({
    default: false,
    on: (v) => /^(1|true|on)$/i.test(v),
    spelled: '1, true or on (anything else: off)',
    description: 'node snapshots on PostgreSQL are committed synchronously',
  }),
  PAIFLOW_ROOT: text({ shown: "the entry point's folder", computed: true, description: "where PaiFlow's files are" }),
  PAIFLOW_MIGRATIONS_DIR: text({
    shown: `\`$PAIFLOW_ROOT/${MIGRATIONS_FOLDER.join('/')}\``,
    computed: true,
    description: 'folder of the migration SQL',
  }),

  // LLM
  OPENAI_API_KEY: text({ trim: true, sensitive: true, description: 'key of an OpenAI-compatible provider' }),
  OPENAI_BASE_URL: httpUrl({
    shown: '`https://api.openai.com/v1`',
    computed: true,
    description: 'endpoint of the OpenAI-compatible provider',
  }),
  MODEL_PRICES: shaped({
    expected: 'a JSON object { "<model or prefix*>": { "input": 0.15, "cachedInput": 0.075, "output": 0.6 } }',
    description: 'model prices, USD per million tokens, over the built-in list',
    parse: (v) => (v?.trim() ? parsePriceTableJson(v) : undefined),
  }),
  HTTP_ALLOWLIST: text({ description: 'trusted internal host:port list for HTTP nodes and tools' }),

  // Redis, events, queue mode
  REDIS_URL: text({ sensitive: true, description: 'Redis for trace events (and queue mode)' }),
  REDIS_PREFIX: text({ default: 'paiflow:', description: 'key prefix in Redis' }),
  EVENTS_RETENTION_S: whole({ default: 300, min: 1, max: 30 * 86_400, description: "s a run's Redis stream is kept" }),
  QUEUE_MODE: flag({ ...off, shown: 'off', description: 'the API enqueues runs, worker processes execute them' }),
  WORKERS: whole({ default: 0, min: 0, description: 'worker processes the app forks' }),
  WORKER_CONCURRENCY: whole({ default: 20, min: 1, description: 'runs per worker process' }),
  QUEUE_GLOBAL_CONCURRENCY: whole({ default: 0, min: 0, description: 'runs at once across workers (0: no limit)' }),
  QUEUE_WORKFLOW_CONCURRENCY: whole({ default: 0, min: 0, description: 'runs of one workflow at once (0: no limit)' }),
  QUEUE_LOCK_MS: whole({ default: 30_000, min: 500, description: "a job's lock" }),
  RUN_STALE_MS: whole({
    min: 100,
    shown: '`20000`',
    computed: true,
    description: 'heartbeat age after which a run is orphaned (default: 20000 or 4 × WORKER_HEARTBEAT_MS)',
  }),
  QUEUE_REAPER_MS: whole({ default: 15_000, min: 100, description: 'interval of the reaper of orphaned runs' }),
  QUEUE_NAME: text({ default: 'runs', description: "the BullMQ queue's name" }),
  QUEUE_MAX_STALLED: whole({ default: 2, min: 0, description: 'how often a job may stall before it fails' }),
  QUEUE_ENQUEUE_TIMEOUT_MS: whole({ default: 5_000, min: 100, description: 'an enqueue slower than this fails' }),
  WORKER_HEARTBEAT_MS: whole({ default: 1_000, min: 50, description: "a worker's run heartbeat" }),
  WORKER_SHUTDOWN_GRACE_MS: whole({ default: 10_000, min: 0, description: 'on SIGTERM, wait for running runs' }),
  PAIFLOW_EXTRA_NODES: list({ description: 'module paths whose `nodes` a worker process registers' }),
  AUTO_RESUME_INTERRUPTED: flag({
    ...off,
    shown: '`0`',
    description: 'runs interrupted by a crash are resumed automatically',
  }),

  // Knowledge and agents
  ELASTICSEARCH_URL: httpUrl({ sensitive: true, description: 'Elasticsearch for knowledge bases' }),
  ELASTICSEARCH_API_KEY: text({ sensitive: true, description: 'API key for Elasticsearch' }),
  ELASTICSEARCH_INDEX_PREFIX: text({ shown: '`paiflow-kb-`', computed: true, description: 'index name prefix' }),
  EMBEDDING_MODEL: shaped({
    shown: '`use-lite` (`openai:text-embedding-3-small` with `OPENAI_API_KEY`)',
    computed: true,
    expected: 'use-lite or openai:<model>',
    description: 'embedding model of new knowledge bases',
    parse: (v) => {
      const m = v?.trim() || undefined;
      if (m !== undefined && m !== 'use-lite' && !/^openai:./.test(m))
        throw new Error('is not a known embedding model');
      return m;
    },
  }),
  KNOWLEDGE_FUSION: shaped({
    lenient: true,
    default: 'weighted',
    expected: 'weighted, rescore or rrf (anything else: the default)',
    description: 'hybrid search fusion',
    parse: (v): 'weighted' | 'rescore' | 'rrf' => {
      const m = (v ?? 'weighted').trim().toLowerCase() || 'weighted';
      if (m !== 'weighted' && m !== 'rescore' && m !== 'rrf') throw new Error('is not a fusion method');
      return m;
    },
  }),
  KNOWLEDGE_ES_CJK_ANALYZER: shaped({
    default: 'cjk',
    expected: 'cjk, smartcn, ik_smart or icu',
    description:
      "how new Elasticsearch indexes tokenize Chinese/Japanese/Korean: `cjk` bigrams (built in), or the cluster's " +
      'smartcn, IK or ICU plugin',
    parse: (v): 'cjk' | 'smartcn' | 'ik_smart' | 'icu' => {
      const m = (v ?? 'cjk').trim().toLowerCase() || 'cjk';
      if (m !== 'cjk' && m !== 'smartcn' && m !== 'ik_smart' && m !== 'icu') throw new Error('is not a CJK analyzer');
      return m;
    },
  }),
  KNOWLEDGE_EXACT_KNN_LIMIT: numeric({
    default: DEFAULT_KNOWLEDGE_EXACT_KNN_LIMIT,
    description: "chunks up to which the embedded index's kNN is an exact scan",
  }),
  KNOWLEDGE_MAX_UPLOAD_BYTES: numeric({ default: 20 * 1024 * 1024, above: 0, description: 'upload size limit' }),
  // A bad MCP_SERVERS must not stop the app: agents that use MCP get the error (parsed by
  // lib/server/agent/create-agent-services.ts).
  MCP_SERVERS: text({ description: 'JSON list of MCP servers for agents' }),
  SKILLS_DIR: text({ trim: true, description: 'folder of agent skill folders (each with a SKILL.md; unset: none)' }),
  MEMORY_EMBEDDING_MODEL: text({
    default: 'use-lite',
    trim: true,
    description: "embedder of agents' long-term memory (an unusable one turns memory off)",
  }),

  // Artifacts (files runs produce: speech, images; engine/artifacts/)
  ARTIFACTS_S3_ENDPOINT: httpUrl({
    description: 'S3-compatible storage for artifacts (unset: a folder under DATA_DIR)',
  }),
  ARTIFACTS_S3_BUCKET: text({ trim: true, description: 'its bucket' }),
  ARTIFACTS_S3_ACCESS_KEY_ID: text({ trim: true, sensitive: true, description: 'its access key id' }),
  ARTIFACTS_S3_SECRET_ACCESS_KEY: text({ trim: true, sensitive: true, description: 'its secret access key' }),
  ARTIFACTS_S3_REGION: text({ default: 'us-east-1', trim: true, description: 'its region (SigV4 signing)' }),
  ARTIFACTS_RETENTION_DAYS: whole({
    default: 0,
    min: 0,
    max: 36_500,
    description: 'artifacts older than this are deleted (0: kept until their run is deleted)',
  }),
  ARTIFACTS_MAX_BYTES: whole({ default: 50 * 1024 * 1024, min: 1, description: 'largest file one artifact may hold' }),

  // Published API (v1)
  RATE_LIMIT_PER_MIN: positive(600, 'per-API-key rate limit on /api/v1'),
  API_KEY_MAX_FAILURES: positive(20, 'wrong API keys from one address before 429'),
  API_KEY_FAILURE_WINDOW_S: positive(900, 'window of API_KEY_MAX_FAILURES, s'),
  MAX_CONCURRENT_RUNS_PER_WORKFLOW: positive(50, 'concurrent published runs per workflow'),
  SYNC_TIMEOUT_MS: positive(30_000, 'sync-mode wait before 202'),

  // Chat apps
  CHAT_MESSAGE_MAX_CHARS: whole({
    default: 8_000,
    min: 1,
    max: 100_000,
    description: 'characters in one chat message (longer: 413 CHAT_MESSAGE_TOO_LONG)',
  }),
  CHAT_HISTORY_MAX_TOKENS: whole({
    default: 4_000,
    min: 0,
    max: 1_000_000,
    description: "tokens of earlier turns sent with a message, the latest that fit (a chat app's own setting wins)",
  }),
  CHAT_MAX_MESSAGES_PER_CONVERSATION: whole({
    default: 200,
    min: 2,
    description: 'messages one conversation may hold (then 409 CONVERSATION_FULL: start a new one)',
  }),
  CHAT_MAX_CONVERSATIONS_PER_VISITOR: whole({
    default: 50,
    min: 1,
    description: 'conversations one chat session or API key keeps per chat app (a new one deletes the oldest)',
  }),
  CHAT_MAX_CONVERSATIONS_PER_APP: whole({
    default: 5_000,
    min: 1,
    description: 'conversations one chat app keeps (a new one deletes the least recently used)',
  }),
  CHAT_SESSIONS_PER_VISITOR_PER_HOUR: whole({
    default: 30,
    min: 1,
    description: 'chat sessions one address may open per chat app in an hour (then 429 TOO_MANY_CHAT_SESSIONS)',
  }),

  // Triggers
  SCHEDULER: flag({
    default: true,
    on: (v) => v !== '0',
    spelled: '0 (anything else: on)',
    description: 'this app process fires schedule triggers (every replica may; each tick starts one run)',
  }),
  SCHEDULER_POLL_MS: whole({
    default: 1_000,
    min: 50,
    max: 60_000,
    description: 'how often due schedules are looked up',
  }),
  WEBHOOK_TIMESTAMP_TOLERANCE_S: whole({
    default: 300,
    min: 1,
    max: 86_400,
    description: 'how far a signed webhook timestamp may be from now, either way, before the call is refused (replays)',
  }),
  SCHEDULER_MISFIRE_GRACE_MS: whole({
    default: 60_000,
    min: 0,
    description: 'a tick later than this is a misfire: it runs once (misfire run_once) or is skipped (skip)',
  }),
  // Evaluations
  EVALUATION_STALE_MS: whole({
    default: 30_000,
    min: 1_000,
    description:
      'an evaluation whose driving app process has not renewed its claim for this long is taken over by another ' +
      '(PostgreSQL, checked every this long; the driver renews it every sixth of this). On the embedded database a ' +
      'restarted process takes every active evaluation over at once',
  }),
  // Rows of all evaluations share one budget per app process (lib/server/evaluations/row-budget.ts); the defaults
  // keep /api/health answering during 4 evaluations × concurrency 16 on 2 cores (bench/README.md, `evaluations`).
  EVALUATION_ROWS_IN_FLIGHT: whole({
    default: 4 * availableParallelism(),
    min: 1,
    shown: '4 × cores (8 on 2 cores)',
    computed: true,
    description: 'evaluation rows running at once in one app process, across all evaluations and workspaces',
  }),
  EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE: whole({
    default: 3 * availableParallelism(),
    min: 1,
    shown: '3 × cores (6 on 2 cores)',
    computed: true,
    description: "evaluation rows of one workspace running at once in one app process (within the server's budget)",
  }),
  CORS_ORIGINS: shaped({
    default: '*',
    expected: '* or a comma-separated list of origins',
    description: 'default browser origins for /api/v1',
    parse: (v): '*' | ReadonlySet<string> => {
      const s = (v ?? '*').trim();
      if (s === '*' || s === '') return '*';
      const origins = s.split(',').map((o) => o.trim().replace(/\/$/, ''));
      return new Set(origins.filter(Boolean));
    },
  }),

  // CPU and document limits
  REGEX_MAX_PATTERN_LENGTH: limit(1000, 'characters in a condition/loop regex'),
  REGEX_MAX_REPEAT: limit(100, 'largest count in {n}, {n,}, {n,m}'),
  REGEX_MAX_PROGRAM_SIZE: limit(2000, 'RE2 program size of a regex'),
  REGEX_TIMEOUT_MS: limit(1000, 'time a regex may run in its worker thread'),
  TEMPLATE_MAX_OUTPUT_CHARS: limit(10_000_000, 'characters a template may render to'),
  NODE_OUTPUT_MAX_BYTES: limit(
    1024 * 1024,
    "bytes of a node's input or output, or a run's outputs, kept in the run record; larger parts become artifacts",
  ),
  DOCUMENT_MAX_CHARS: limit(5_000_000, 'characters of text from one document'),
  DOCUMENT_MAX_INFLATED_BYTES: limit(
    128 * 1024 * 1024,
    "bytes a PDF's streams or a .docx's zip entries may inflate to",
  ),
  DOCUMENT_MAX_PAGES: limit(2000, 'pages of one PDF'),
  DOCUMENT_MAX_CHUNKS: limit(20_000, 'chunks of one document'),
  DOCUMENT_PARSE_TIMEOUT_MS: limit(120_000, 'time parsing one document may take'),
  DOCUMENT_WORKER_MEMORY_MB: limit(512, "memory a document's worker may use", 32),
  EMBEDDING_BATCH_TIMEOUT_MS: limit(60_000, 'time one batch of the offline embedder may take'),
  // Uploads and imports read on the request path (engine/uploads/): checked while they are read, in a worker thread.
  UPLOAD_PARSE_TIMEOUT_MS: limit(20_000, 'time reading one dataset file, import or multipart upload may take'),
  DATASET_MAX_COLUMNS: limit(200, "columns of a dataset file (a JSONL row's inputs)"),
  DATASET_MAX_CELL_CHARS: limit(100_000, 'characters of one value in a dataset file'),
  DATASET_MAX_BYTES: limit(4 * 1024 * 1024, "bytes of a dataset file's rows as JSON"),
  IMPORT_MAX_YAML_NODES: limit(100_000, 'values (scalars and collections) of an imported YAML document'),
  CPU_WORKER_THREADS: whole({
    // One core stays with the event loop; on one core the worker still gets a thread (the OS shares it).
    default: Math.max(1, availableParallelism() - 1),
    min: 1,
    lenient: true,
    shown: 'cores − 1 (min 1)',
    computed: true,
    note: ' (anything else: the default)',
    description: 'worker threads for short CPU tasks',
  }),

  EMBEDDING_THREADS: whole({
    // Each thread loads the offline model (~0.3 s, ~165 MB of RSS measured) on first use and ends after five idle
    // minutes; the threads run below the event loop's priority, so requests keep their core while documents index.
    // One thread embeds ~15 English chunks of 512 characters per second on this machine, whatever the batch size.
    default: Math.max(1, Math.min(2, availableParallelism())),
    min: 1,
    lenient: true,
    shown: 'cores, at most 2',
    computed: true,
    note: ' (anything else: the default)',
    description: 'worker threads of the offline embedding model (documents index on all of them at once)',
  }),

  // OpenTelemetry (lib/server/runs/telemetry.ts)
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl({
    sensitive: true,
    description: 'OTLP/HTTP collector: every run is exported as a trace to `<url>/v1/traces` (unset: no export)',
  }),
  OTEL_EXPORTER_OTLP_TIMEOUT: whole({
    default: 10_000,
    min: 1,
    note: ' (above 10000 counts as 10000)',
    description: 'ms one export request may take',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: shaped({
    expected: 'key=value pairs, comma-separated, values percent-encoded',
    sensitive: true,
    description: 'headers sent to the collector (e.g. its API key), never part of a span',
    parse: (v) => (v?.trim() ? parseOtlpHeaders(v) : undefined),
  }),
  OTEL_SERVICE_NAME: text({ default: 'paiflow', trim: true, description: 'service.name of the exported traces' }),
  OTEL_EXPORT_CONTENT: flag({ ...off, description: 'exported spans include prompts, inputs, outputs, tool arguments' }),

  // Engine
  LOOP_MAX_ITERATIONS: numeric({ default: 25, description: 'default per-node iteration limit in cycles' }),
  NODE_TIMEOUT_MS: numeric({ default: 600_000, min: 1, max: MAX_TIMER_MS, description: 'default per-node timeout' }),
  DAG_CONCURRENCY: numeric({
    default: 8,
    note: ' (below 1 counts as 1)',
    description: 'parallel nodes per run on the DAG engine',
  }),

  // App and HTTP
  MAX_BODY_BYTES: numeric({ default: 2 * 1024 * 1024, above: 0, description: 'request body limit' }),
  SEED_EXAMPLE: flag({
    default: true,
    on: (v) => v !== '0',
    spelled: '0 (anything else: on)',
    description: 'seed the example workflow into a fresh database',
  }),
  PAIFLOW_OWNER_EMAIL: text({ description: 'owner account created at start-up (with the password)' }),
  PAIFLOW_OWNER_PASSWORD: text({ sensitive: true, description: 'password of that owner account' }),
  PAIFLOW_OWNER_NAME: text({ default: 'Owner', description: 'name of that owner account' }),
  PAIFLOW_ENCRYPTION_KEY: text({
    trim: true,
    min: 16,
    sensitive: true,
    description: 'master key of the credentials vault (unset: generated into DATA_DIR/encryption.key)',
  }),
  SESSION_IDLE_S: whole({ default: 86_400, min: 1, description: 'a browser session expires after this long unused' }),
  SESSION_MAX_AGE_S: whole({ default: 14 * 86_400, min: 1, description: 'a browser session expires this long after' }),
  PAIFLOW_CLIENT_IP_TAG: text({
    shown: 'random per process',
    computed: true,
    sensitive: true,
    description: "tag of server.mjs's client-address header",
  }),
  TRUST_PROXY: flag({ ...off, description: 'behind a reverse proxy: the client address is from X-Forwarded-For' }),
  COOKIE_SECURE: flag({ ...off, description: 'session cookies are always Secure' }),
  PUBLIC_URL: shaped({
    expected: 'http(s) origins, comma-separated',
    description: "the app's public origins",
    parse: (v): readonly string[] => Object.freeze(parsePublicUrl(v)),
  }),
  PORT: whole({ default: 3000, min: 0, max: 65_535, description: 'where `npm start` listens (read by server.mjs)' }),
  HOSTNAME: text({ default: 'localhost', description: 'where `npm start` listens (read by server.mjs)' }),

  // Single sign-on (OpenID Connect)
  OIDC_ISSUER: shaped({
    expected: 'an https:// URL (http:// only for localhost)',
    description: 'OpenID Connect issuer: "Sign in with …" beside passwords (unset: off; needs OIDC_CLIENT_ID)',
    parse: parseIssuer,
  }),
  OIDC_CLIENT_ID: text({ trim: true, description: "PaiFlow's client id at the issuer" }),
  OIDC_CLIENT_SECRET: text({ trim: true, sensitive: true, description: 'its client secret (unset: PKCE only)' }),
  OIDC_SCOPES: shaped({
    default: 'openid email profile',
    expected: 'space-separated scopes, openid among them',
    description: 'scopes asked for at sign-in',
    parse: parseScopes,
  }),
  OIDC_DEFAULT_ROLE: shaped({
    default: DEFAULT_SSO_ROLE,
    expected: SSO_ROLES.join(', '),
    description: 'role in the default workspace of a user signing in with SSO for the first time',
    parse: parseDefaultRole,
  }),
  OIDC_ROLE_CLAIM: text({ trim: true, description: "claim with the user's groups or roles, e.g. groups" }),
  OIDC_ROLE_MAP: shaped({
    expected: `value:role pairs, comma-separated (role: ${SSO_ROLES.join(', ')})`,
    description: 'which value of OIDC_ROLE_CLAIM gives which role',
    parse: parseRoleMap,
  }),
  OIDC_NAME: text({ trim: true, shown: "the issuer's host", computed: true, description: 'name on the button' }),
};

/**
 * Families of variables whose names are chosen by workflows (read by lib/server/credentials/env-secrets.ts, never held
 * here).
 */
export const SECRET_VARIABLES = {
  'SECRET_<NAME>': { shown: '—', description: 'a named secret' },
  'SECRET_<NAME>_HOSTS': { shown: '—', description: 'comma-separated hosts that secret may be sent to' },
};

export type VariableName = keyof typeof VARIABLES;
