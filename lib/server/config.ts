/**
 * The app's view of its settings (engine/config/settings.ts, where every variable is parsed and validated;
 * docs/configuration.md lists them): what createApp() wires from.
 */
import { parseSettings, settings, type Env, type Settings } from '@/engine/config/settings';

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

export function appConfigOf(s: Settings): AppConfig {
  return {
    dataDir: s.DATA_DIR,
    databaseUrl: s.DATABASE_URL,
    databaseSchema: s.DATABASE_SCHEMA,
    redisUrl: s.REDIS_URL,
    elasticsearchUrl: s.ELASTICSEARCH_URL,
    openaiApiKey: s.OPENAI_API_KEY,
    openaiBaseUrl: s.OPENAI_BASE_URL,
    httpAllowlist: s.HTTP_ALLOWLIST,
    seedExample: s.SEED_EXAMPLE,
    autoResumeInterrupted: s.AUTO_RESUME_INTERRUPTED,
    maxBodyBytes: s.MAX_BODY_BYTES,
    sessionIdleSeconds: s.SESSION_IDLE_S,
    sessionMaxAgeSeconds: s.SESSION_MAX_AGE_S,
    owner:
      s.PAIFLOW_OWNER_EMAIL && s.PAIFLOW_OWNER_PASSWORD
        ? { email: s.PAIFLOW_OWNER_EMAIL, password: s.PAIFLOW_OWNER_PASSWORD, name: s.PAIFLOW_OWNER_NAME }
        : undefined,
  };
}

/** The config of `env` (tests give their own), else of the current settings; INVALID_CONFIG on a bad value. */
export function readConfig(env?: Env): AppConfig {
  return appConfigOf(env ? parseSettings(env) : settings());
}
