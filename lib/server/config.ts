/** Configuration by environment variable — the full list is in the README. */
export interface AppConfig {
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
  redisUrl?: string;
  elasticsearchUrl?: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  httpAllowlist?: string;
  seedExample: boolean;
  autoResumeInterrupted: boolean;
  maxBodyBytes: number;
  /** A browser session unused this long expires (SESSION_IDLE_S, default 1 day). */
  sessionIdleSeconds: number;
  /** A browser session expires this long after sign-in (SESSION_MAX_AGE_S, default 14 days). */
  sessionMaxAgeSeconds: number;
  /** PAIFLOW_OWNER_EMAIL + PAIFLOW_OWNER_PASSWORD (+ PAIFLOW_OWNER_NAME): create the owner at start-up (Docker, CI). */
  owner?: { email: string; password: string; name: string };
}

function positiveSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number of seconds, not "${raw}"`);
  return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    elasticsearchUrl: env.ELASTICSEARCH_URL || undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    httpAllowlist: env.HTTP_ALLOWLIST || undefined,
    seedExample: env.SEED_EXAMPLE !== '0',
    autoResumeInterrupted: env.AUTO_RESUME_INTERRUPTED === '1',
    maxBodyBytes: Number(env.MAX_BODY_BYTES || 2 * 1024 * 1024),
    sessionIdleSeconds: positiveSeconds(env, 'SESSION_IDLE_S', 86_400),
    sessionMaxAgeSeconds: positiveSeconds(env, 'SESSION_MAX_AGE_S', 14 * 86_400),
    owner:
      env.PAIFLOW_OWNER_EMAIL && env.PAIFLOW_OWNER_PASSWORD
        ? {
            email: env.PAIFLOW_OWNER_EMAIL,
            password: env.PAIFLOW_OWNER_PASSWORD,
            name: env.PAIFLOW_OWNER_NAME || 'Owner',
          }
        : undefined,
  };
}
