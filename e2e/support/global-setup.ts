/**
 * Signs in once as the owner the app created at start-up (PAIFLOW_OWNER_*) and saves the session cookie as
 * Playwright storageState: every spec's pages and `request` fixture use it (see playwright.config.ts).
 */
import { request } from '@playwright/test';
import { e2eEnv, OWNER } from './environment';

export default async function globalSetup() {
  const env = e2eEnv();
  const ctx = await request.newContext({ baseURL: env.baseURL });
  try {
    const res = await ctx.post('/api/auth/login', { data: { email: OWNER.email, password: OWNER.password } });
    if (res.status() !== 200) throw new Error(`owner sign-in failed: ${res.status()} ${await res.text()}`);
    await ctx.storageState({ path: env.authFile });
  } finally {
    await ctx.dispose();
  }
}
