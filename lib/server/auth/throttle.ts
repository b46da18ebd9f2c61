/**
 * Sign-in throttling in the database (so that it holds across replicas): after MAX_FAILURES failed attempts for one
 * key (an account, a client address) within the window, attempts for that key answer 429 with Retry-After.
 * An attempt is recorded BEFORE the password is checked and removed only when it succeeds, so guesses sent all at
 * once are counted too: at most MAX_FAILURES of them are ever checked.
 */
import { PaiError } from '@/engine/errors';
import type { SignInAttempts } from '@/engine/store/accounts';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;

export interface Attempt {
  /** The password was right: this attempt does not count, and earlier failures of `clearKeys` are forgotten. */
  succeeded(clearKeys?: string[]): Promise<void>;
}

export async function startAttempt(attempts: SignInAttempts, keys: string[]): Promise<Attempt> {
  const ids = await attempts.record(keys);
  const since = new Date(Date.now() - WINDOW_MS);
  for (const key of keys) {
    const recent = await attempts.recent(key, since, ids, MAX_FAILURES);
    if (recent.length >= MAX_FAILURES) {
      const oldest = recent[recent.length - 1].getTime();
      const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - Date.now()) / 1000));
      throw new PaiError('TOO_MANY_ATTEMPTS', `too many failed sign-ins; try again in ${retryAfter} s`, {
        details: { retryAfter },
      });
    }
  }
  // Old rows are of no use: drop them now and then instead of keeping a table that grows with every attempt.
  if (Math.random() < 0.05) await attempts.deleteOlderThan(since);
  return {
    async succeeded(clearKeys = []) {
      await attempts.forget(ids, clearKeys);
    },
  };
}
