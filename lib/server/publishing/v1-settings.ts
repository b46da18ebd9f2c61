/**
 * Settings and in-memory limiters of the published (v1) API, one set per App: taken from the settings when the app
 * is first used, so a test that sets RATE_LIMIT_PER_MIN before getApp() gets its own limits.
 *   RATE_LIMIT_PER_MIN (600)  SYNC_TIMEOUT_MS (30000)  MAX_CONCURRENT_RUNS_PER_WORKFLOW (50)  CORS_ORIGINS ('*')
 *   API_KEY_MAX_FAILURES (20)  API_KEY_FAILURE_WINDOW_S (900)
 */
import { settings, type Settings } from '@/engine/config/settings';
import type { App } from '../app-types';
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

const perApp = new WeakMap<App, V1Settings>();

export function v1Settings(app: App, from: Settings = settings()): V1Settings {
  let s = perApp.get(app);
  if (!s) {
    s = {
      syncTimeoutMs: from.SYNC_TIMEOUT_MS,
      limiter: new TokenBuckets(from.RATE_LIMIT_PER_MIN),
      slots: new RunSlots(Math.floor(from.MAX_CONCURRENT_RUNS_PER_WORKFLOW)),
      keyFailures: new FailureWindow(Math.floor(from.API_KEY_MAX_FAILURES), from.API_KEY_FAILURE_WINDOW_S * 1000),
    };
    perApp.set(app, s);
  }
  return s;
}

/** CORS_ORIGINS: `*` or a set of exact origins. Read per request: CORS preflights must not need the database. */
export function corsOrigins(): '*' | ReadonlySet<string> {
  return settings().CORS_ORIGINS;
}
