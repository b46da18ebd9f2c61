/**
 * The longer meaning of some environment variables, shown in docs/configuration.md in place of the one-line
 * description of engine/config/variables.ts (which the page shows for every other variable). Names, defaults and
 * accepted values always come from engine/config/variables.ts; a note for a variable it does not know stops the
 * generator (scripts/docs/configuration.ts).
 */
export const CONFIGURATION_NOTES: Record<string, string> = {
  DATA_DIR:
    'where the embedded database (PGlite) and the embedded knowledge index keep their files (also the artifacts ' +
    'folder and the generated `encryption.key`, unless configured otherwise)',
  DB_THREAD_SPIN_MS:
    "after answering a request, a database thread (the embedded database's; PostgreSQL's write thread) polls this " +
    'long for the next one before it sleeps (waking a sleeping thread cost a node on a chain 0.1–0.3 ms here); never ' +
    'after a run’s final commit (the core goes to the database server and the next run); `0` → never poll; always ' +
    'off on one core',
  DB_EMBEDDED_BUFFERS_MB:
    "the embedded database's buffer cache (Postgres `shared_buffers`), which it allocates whole at start: Postgres's " +
    'own 128 MB was a third of an idle embedded server; raise it for large embedded databases',
  PG_WRITE_THREAD:
    "`0` → PostgreSQL's hot statements (node commits, the run INSERT, the API key lookup) are sent from the main " +
    'thread instead of a thread of their own (also so with `DB_THREAD_SPIN_MS=0` or one core)',
  DATABASE_URL: 'PostgreSQL connection string; when set, PostgreSQL replaces the embedded database',
  DATABASE_SCHEMA:
    'PostgreSQL schema to use; with `DATABASE_URL` it must be a plain name (lower-case letters, digits and `_`, not ' +
    'first a digit), else start-up stops with `INVALID_CONFIG`',
  SNAPSHOT_SYNC_COMMIT:
    'node snapshots on PostgreSQL are committed synchronously too (see ' +
    '[Durability of node snapshots](architecture.md#durability-of-node-snapshots))',
  PAIFLOW_ROOT:
    'where PaiFlow finds its own files (set by `server.mjs` and `scripts/worker.ts`; see ' +
    '[Migrations](operations.md#upgrades-and-migrations))',
  PAIFLOW_MIGRATIONS_DIR: 'where PaiFlow finds its migration SQL',
  OPENAI_API_KEY:
    'API key of an OpenAI-compatible provider; with `OPENAI_BASE_URL` unset too (and no node or credential naming a ' +
    'server) → the offline demo model, and every run it answers says `demo: true`',
  OPENAI_BASE_URL:
    'any OpenAI-compatible endpoint (DeepSeek, Qwen/DashScope, Ollama, vLLM …); set alone, without ' +
    '`OPENAI_API_KEY`, it is called without a key (a local Ollama, vLLM or LM Studio needs none)',
  MODEL_PRICES:
    'model prices in USD per million tokens over the built-in list (`engine/llm/price-table.ts`: common OpenAI, ' +
    'DeepSeek, Qwen models): `{ "gpt-4o-mini": { "input": 0.15, "cachedInput": 0.075, "output": 0.6 }, ' +
    '"my-model*": { … } }` (exact id, else the longest `prefix*`, else the id without a date suffix); an ' +
    "OpenAI-compatible credential's `prices` (same shape) override both",
  'SECRET_<NAME>':
    'a named secret; nodes refer to secrets by name (an LLM node\'s `apiKeySecret: "DEEPSEEK"` reads ' +
    "`SECRET_DEEPSEEK`; an HTTP header's `secret`)",
  'SECRET_<NAME>_HOSTS':
    'comma-separated hosts the secret may be sent to (`host` = https on 443, `host:port`, `*.domain`): required for ' +
    "an HTTP header's `secret` and for `apiKeySecret` with a node's own `provider.baseUrl`; without it the node " +
    'fails with `SECRET_HOST_NOT_ALLOWED` before sending',
  HTTP_ALLOWLIST:
    "comma-separated trusted internal `host:port`s that HTTP nodes, tools and credentials' base URLs (a local " +
    'Ollama or vLLM) may call despite the SSRF guard; a refusal (`SSRF_BLOCKED`) names the entry to add',
  REDIS_URL: 'Redis: trace events go over Redis Streams (under `REDIS_PREFIX`); queue mode needs it too',
  REDIS_PREFIX: "prefix of PaiFlow's Redis keys (event streams; BullMQ's under `<prefix>bull:`)",
  EVENTS_RETENTION_S:
    "with `REDIS_URL`: seconds a run's Redis stream of live events is kept after its last event; the database keeps " +
    'every event for replay',
  QUEUE_MODE:
    '`1`: the API only enqueues runs (BullMQ) and worker processes execute them (needs `REDIS_URL` and ' +
    '`DATABASE_URL`); run `npm run worker` anywhere, or let the app fork them (`WORKERS`)',
  WORKERS: 'the app forks this many worker processes; `WORKERS=n` (n > 0) also turns queue mode on',
  QUEUE_LOCK_MS: "job lock: a dead worker's job is re-delivered after it",
  QUEUE_MAX_STALLED: 'how often a job may stall (its worker died) before it fails',
  QUEUE_ENQUEUE_TIMEOUT_MS: 'an enqueue slower than this fails the run with `QUEUE_UNAVAILABLE` (503)',
  WORKER_HEARTBEAT_MS: "a worker's run heartbeat (also how soon a cancel from another process reaches it)",
  WORKER_SHUTDOWN_GRACE_MS:
    'on SIGTERM, how long a worker waits for its running runs before exiting (the rest are re-delivered)',
  PAIFLOW_EXTRA_NODES:
    'comma-separated module paths whose `nodes` export (node definitions) a worker process registers too (custom ' +
    'node types)',
  AUTO_RESUME_INTERRUPTED: '`1` → runs interrupted by a crash are resumed automatically (at start-up / by the reaper)',
  ELASTICSEARCH_URL:
    'Elasticsearch for knowledge bases (see [Elasticsearch](operations.md#elasticsearch-for-knowledge-bases)); ' +
    "unset → embedded hybrid index, which lives in one process's `DATA_DIR`: queue mode without it refuses to start " +
    'while knowledge bases exist on the embedded index and refuses new ones (409 `KNOWLEDGE_NEEDS_ELASTICSEARCH`); ' +
    'several replicas on one PostgreSQL need it too',
  ELASTICSEARCH_INDEX_PREFIX: "prefix of the knowledge bases' index names",
  EMBEDDING_MODEL: 'embeddings for new knowledge bases: `use-lite` (offline, 512-d) or `openai:<model>`',
  KNOWLEDGE_FUSION: '`rescore` (kNN + BM25 rescore, 0.2/1.0) or `rrf`',
  KNOWLEDGE_ES_CJK_ANALYZER:
    'how new Elasticsearch indexes tokenize Chinese, Japanese and Korean: `cjk` (character bigrams, built in), ' +
    "`smartcn`, `ik_smart` or `icu` (needs the cluster's analysis-smartcn, analysis-ik or analysis-icu plugin; " +
    'without it creating a knowledge base fails with `KNOWLEDGE_ANALYZER_UNAVAILABLE`); existing indexes keep theirs',
  KNOWLEDGE_EXACT_KNN_LIMIT:
    "up to this many chunks the embedded index's kNN is an exact scan; above it, a binary-code prefilter re-ranked " +
    'exactly',
  KNOWLEDGE_MAX_UPLOAD_BYTES: 'size limit of a knowledge-base document upload (413 above it)',
  MCP_SERVERS:
    'JSON list of MCP servers for agents: `[{ "name": "fs", "command": "npx", "args": [...] }, { "name": "x", ' +
    '"url": "https://…/mcp" }]`; a bad value does not stop the app: the agents that use MCP get the error',
  SKILLS_DIR:
    'folder of agent skills, one folder per skill named like it, each with a `SKILL.md` (front matter `name`, ' +
    '`description`); re-read when they change. Workspaces can upload their own in Settings → Skills (an upload wins ' +
    'over a folder skill of the same name)',
  ARTIFACTS_S3_ENDPOINT:
    'S3-compatible storage (AWS S3, MinIO, R2 …; path-style, SigV4) for artifacts, the files runs produce (speech, ' +
    'images); unset → files under `DATA_DIR/artifacts`, which every process that runs nodes or serves ' +
    '`/api/artifacts` must share (one machine, or one volume as in `docker-compose.yml`). All or none of ' +
    '`ARTIFACTS_S3_ENDPOINT`, `_BUCKET`, `_ACCESS_KEY_ID` and `_SECRET_ACCESS_KEY`: a partial setting stops start-up ' +
    'with `INVALID_CONFIG`',
  ARTIFACTS_S3_REGION: 'the region its requests are signed for (MinIO accepts any)',
  ARTIFACTS_RETENTION_DAYS:
    'artifacts older than this many days are deleted by the hourly sweep (0: kept until their run is deleted; a ' +
    "deleted run's files are swept too)",
  ARTIFACTS_MAX_BYTES: 'largest file one artifact may hold (`ARTIFACT_TOO_LARGE` above it)',
  RATE_LIMIT_PER_MIN: 'per-API-key rate limit on `/api/v1` (429 + `Retry-After`)',
  API_KEY_MAX_FAILURES:
    'after this many wrong API keys or refused webhook calls (secret, signature, timestamp) from one client address ' +
    'within `API_KEY_FAILURE_WINDOW_S`, that address gets 429 `TOO_MANY_ATTEMPTS` + `Retry-After` on `/api/v1` and ' +
    'every webhook (per process)',
  API_KEY_FAILURE_WINDOW_S: 'the window, in seconds, over which `API_KEY_MAX_FAILURES` counts',
  MAX_CONCURRENT_RUNS_PER_WORKFLOW: 'concurrent published runs per workflow (429 above)',
  SYNC_TIMEOUT_MS: 'sync-mode wait before answering 202 + status URL',
  SCHEDULER:
    '`0`: this app process fires no schedule triggers (another replica does; any number may, each tick starts one ' +
    'run)',
  WEBHOOK_TIMESTAMP_TOLERANCE_S:
    "how far a webhook's signed timestamp (`X-Webhook-Timestamp`, `webhook-timestamp`) may be from the server's " +
    'clock, either way; further → 401 `WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE`',
  SCHEDULER_MISFIRE_GRACE_MS:
    'a schedule tick later than this is a misfire: it runs once (`misfire: "run_once"`) or is skipped (`"skip"`)',
  CORS_ORIGINS: 'default browser origins for `/api/v1` (`*` or a comma-separated list); a workflow may set its own',
  REGEX_MAX_PATTERN_LENGTH: 'characters in a condition/loop regex; longer → `REGEX_TOO_COMPLEX`',
  REGEX_MAX_REPEAT: 'largest count in `{n}`, `{n,}`, `{n,m}` → `REGEX_TOO_COMPLEX`',
  REGEX_MAX_PROGRAM_SIZE: 'RE2 program size (instructions) a regex may compile to → `REGEX_TOO_COMPLEX`',
  REGEX_TIMEOUT_MS: 'time a regex on a large value may run in its worker thread → `REGEX_TIMEOUT`',
  TEMPLATE_MAX_OUTPUT_CHARS: 'characters an interpolated template may render to → `TEMPLATE_OUTPUT_TOO_LARGE`',
  NODE_OUTPUT_MAX_BYTES:
    "bytes of a node's input or output, or a run's outputs, kept in the run record; larger strings become artifacts " +
    'with a reference in their place',
  DOCUMENT_MAX_CHARS: 'characters of text extracted from one document → `DOCUMENT_TOO_LARGE`',
  DOCUMENT_MAX_INFLATED_BYTES:
    "bytes a PDF's compressed streams, or a .docx's zip entries, may inflate to, all together → " +
    '`DOCUMENT_INFLATED_TOO_LARGE`',
  DOCUMENT_MAX_PAGES: 'pages of one PDF → `DOCUMENT_TOO_MANY_PAGES`',
  DOCUMENT_MAX_CHUNKS: 'chunks of one document → `DOCUMENT_TOO_MANY_CHUNKS`',
  DOCUMENT_PARSE_TIMEOUT_MS: 'time parsing and chunking one document may take → `DOCUMENT_PARSE_TIMEOUT`',
  DOCUMENT_WORKER_MEMORY_MB:
    "memory a document's worker may use (JS heap) and the process may grow by while it parses → " +
    '`DOCUMENT_OUT_OF_MEMORY`',
  EMBEDDING_BATCH_TIMEOUT_MS: 'time one batch of the offline embedder may take → `EMBEDDING_TIMEOUT`',
  UPLOAD_PARSE_TIMEOUT_MS:
    'time reading one dataset upload, Dify YAML or multipart upload may take in its worker thread → 413 ' +
    '`UPLOAD_PARSE_TIMEOUT`',
  DATASET_MAX_COLUMNS: "columns of a dataset file (fields of a JSONL row's `inputs`) → 413 `DATASET_TOO_MANY_COLUMNS`",
  DATASET_MAX_CELL_CHARS: 'characters of one value in a dataset file → 413 `DATASET_CELL_TOO_LARGE`',
  DATASET_MAX_BYTES:
    "bytes of an uploaded dataset's rows as JSON (what is stored; column names repeat in every row) → 413 " +
    '`DATASET_TOO_LARGE`',
  IMPORT_MAX_YAML_NODES: 'values (scalars and collections) of an imported Dify YAML → 413 `YAML_TOO_MANY_NODES`',
  CPU_WORKER_THREADS: 'worker threads for short CPU tasks (regexes); documents and embeddings have one thread each',
  OTEL_EXPORTER_OTLP_ENDPOINT:
    "an OTLP/HTTP collector's base URL (spans go to `<url>/v1/traces`, JSON): every run this process executes is " +
    'exported as a trace (see [OpenTelemetry](operations.md#opentelemetry)); unset → no export',
  OTEL_EXPORTER_OTLP_TIMEOUT: 'ms one export request may take; a run never waits for it',
  OTEL_EXPORTER_OTLP_HEADERS:
    'headers sent to the collector, `key=value` pairs, comma-separated, values percent-encoded (e.g. ' +
    '`x-api-key=…`); never part of a span',
  OTEL_EXPORT_CONTENT:
    '`1` → spans also carry prompts and model output, node inputs and outputs, tool arguments and results, ' +
    'retrieval queries (off: structure, timings, models, token counts, ids, statuses and error codes only)',
  LOOP_MAX_ITERATIONS: "default per-node iteration limit in cycles (a node's `data.maxIterations` overrides)",
  MAX_BODY_BYTES: 'request body limit (413 above it); uploads: `KNOWLEDGE_MAX_UPLOAD_BYTES`',
  SEED_EXAMPLE: '`0` → do not seed the two example workflows (Support triage, Agent team) into a fresh database',
  PAIFLOW_OWNER_EMAIL:
    'create the owner account at start-up when no user exists (Docker, CI), with `PAIFLOW_OWNER_PASSWORD` and ' +
    '`PAIFLOW_OWNER_NAME`',
  PAIFLOW_ENCRYPTION_KEY:
    'master key for the credentials vault (16+ characters); unset → a key generated once into ' +
    '`DATA_DIR/encryption.key` (back it up)',
  PAIFLOW_CLIENT_IP_TAG:
    'the tag with which `server.mjs` marks the client-address header it sets (set it only to share one across ' +
    'processes)',
  TRUST_PROXY:
    '`1` → behind a reverse proxy: the client address (sign-in throttling, audit log) is the last ' +
    '`X-Forwarded-For` entry; otherwise the connecting address',
  COOKIE_SECURE:
    '`1` → session cookies are always `Secure` (default: when the request came over HTTPS, `X-Forwarded-Proto`)',
  PUBLIC_URL:
    "the app's public origin(s), comma-separated (the first is used in links): `npm start` answers only for these " +
    'hosts, `localhost` and IP literals (any other `Host` → 421 `HOST_NOT_ALLOWED`, against DNS rebinding); also ' +
    'accepted by the CSRF origin check behind a proxy that rewrites `Host`',
  PORT: 'where `npm start` listens (also `--port`)',
  HOSTNAME: 'where `npm start` listens (also `--hostname`; the Docker image sets `0.0.0.0`)',
  OIDC_ISSUER:
    'OpenID Connect issuer (Keycloak realm, Authing app, Azure AD tenant, Google): the login page offers ' +
    '"Sign in with …" beside passwords; needs `OIDC_CLIENT_ID`; the callback to register is ' +
    '`<PUBLIC_URL>/api/auth/oidc/callback` (see [Single sign-on](single-sign-on.md)); unset → no single sign-on',
  OIDC_CLIENT_SECRET: "PaiFlow's client secret at the issuer; unset → a public client (PKCE only)",
  OIDC_DEFAULT_ROLE:
    'role in the default workspace of a user whose first sign-in is by single sign-on (and of everyone, with ' +
    '`OIDC_ROLE_CLAIM`, whose claim maps to no role); never `owner`',
  OIDC_ROLE_CLAIM:
    "claim with the user's groups or roles (`groups`, `roles`, or a path such as `realm_access.roles`); set → the " +
    'issuer decides the role at every sign-in, through `OIDC_ROLE_MAP` (an owner stays owner)',
  OIDC_ROLE_MAP:
    '`value:role` pairs, comma-separated (`paiflow-admins:admin,devs:editor`): a user whose `OIDC_ROLE_CLAIM` holds ' +
    'the value gets the role (the highest of several); roles `admin`, `editor`, `viewer`',
  OIDC_NAME: 'the name on the "Sign in with …" button (default: the issuer\'s host)',
};
