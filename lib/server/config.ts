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
  };
}
