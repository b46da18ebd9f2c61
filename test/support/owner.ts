/**
 * The test harness signs in once: the first time a test calls a management route, the app's owner account is set
 * up (as a fresh install would be) and a personal access token minted; every later call of that app uses it.
 */
import type { App } from '@/lib/server/app-types';
import { databaseOf } from './database-of';

export const OWNER = { email: 'owner@example.test', password: 'owner-password-1', name: 'Test Owner' };

const tokens = new WeakMap<App, Promise<string>>();

export function ownerToken(app: App): Promise<string> {
  let t = tokens.get(app);
  if (!t) {
    t = (async () => {
      if (!(await app.accounts.hasUsers())) await app.accounts.setup(OWNER).catch(() => {});
      const user = await databaseOf(app).prisma.user.findFirstOrThrow({ orderBy: { createdAt: 'asc' } });
      return (await app.accounts.createToken(user, 'test harness', undefined)).token;
    })();
    tokens.set(app, t);
  }
  return t;
}

export async function ownerHeaders(app: App): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await ownerToken(app)}` };
}
