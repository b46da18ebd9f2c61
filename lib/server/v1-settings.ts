/**
 * Settings and in-memory limiters of the published (v1) API, one set per App: read from the environment when the app
 * is first used, so a test that sets RATE_LIMIT_PER_MIN before getApp() gets its own limits.
 *   RATE_LIMIT_PER_MIN (600)  SYNC_TIMEOUT_MS (30000)  MAX_CONCURRENT_RUNS_PER_WORKFLOW (50)  CORS_ORIGINS ('*')
 *   API_KEY_MAX_FAILURES (20)  API_KEY_FAILURE_WINDOW_S (900)
 */
import type { App } from './app';
import { FailureWindow } from './failure-window';
import { TokenBuckets } from './rate-limit';
import { RunSlots } from './run-slots';

export interface V1Settings {
  syncTimeoutMs: number;
  limiter: TokenBuckets;
  slots: RunSlots;
  /** Failed API-key attempts per client address (a wrong, revoked or malformed key). */
  keyFailures: FailureWindow;
}

const positive = (v: string | undefined, dflt: number) => {
  const n = Number(v);
  return v && Number.isFinite(n) && n > 0 ? n : dflt;
};

const perApp = new WeakMap<App, V1Settings>();

export function v1Settings(app: App, env: NodeJS.ProcessEnv = process.env): V1Settings {
  let s = perApp.get(app);
  if (!s) {
    s = {
      syncTimeoutMs: positive(env.SYNC_TIMEOUT_MS, 30_000),
      limiter: new TokenBuckets(positive(env.RATE_LIMIT_PER_MIN, 600)),
      slots: new RunSlots(Math.floor(positive(env.MAX_CONCURRENT_RUNS_PER_WORKFLOW, 50))),
      keyFailures: new FailureWindow(
        Math.floor(positive(env.API_KEY_MAX_FAILURES, 20)),
        positive(env.API_KEY_FAILURE_WINDOW_S, 900) * 1000,
      ),
    };
    perApp.set(app, s);
  }
  return s;
}

/** `*` or a comma-separated list of exact origins. Read per request: CORS preflights must not need the database. */
export function corsOrigins(env: NodeJS.ProcessEnv = process.env): '*' | Set<string> {
  const v = (env.CORS_ORIGINS ?? '*').trim();
  return v === '*' || v === ''
    ? '*'
    : new Set(
        v
          .split(',')
          .map((o) => o.trim().replace(/\/$/, ''))
          .filter(Boolean),
      );
}
