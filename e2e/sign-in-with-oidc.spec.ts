/**
 * Guarantees: on the built app with single sign-on configured, the login page shows "Sign in with <name>"; clicking
 * it goes through a real OpenID Connect provider (oidc-provider, which signs the test account in without a form)
 * and lands back on the page the user came for, signed in as that account; a failed sign-in is explained on the
 * login page. It starts a production server of its own with the OIDC_* settings (the suite's app has none), on the
 * build the suite's app already made.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestProvider } from '../test/support/oidc-test-provider';
import { SIGNED_OUT } from './support/api';
import { OWNER, ROOT } from './support/environment';

let server: ChildProcess | undefined;
let idp: TestProvider | undefined;
let base = '';

test.skip(process.env.E2E_DEV === '1', 'needs the production build (E2E_DEV=1 runs next dev)');

test.beforeAll(async () => {
  // A production server's start (a fresh database) takes minutes on a loaded 2-core machine.
  test.setTimeout(300_000);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  base = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({
    redirectUris: [`${base}/api/auth/oidc/callback`],
    accounts: { grace: { email: 'grace@corp.test', email_verified: true, name: 'Grace Hopper' } },
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'paiflow-e2e-oidc-')),
    OPENAI_API_KEY: '',
    SEED_EXAMPLE: '0',
    PAIFLOW_OWNER_EMAIL: OWNER.email,
    PAIFLOW_OWNER_PASSWORD: OWNER.password,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: 'Corp ID',
  };
  for (const k of ['DATABASE_URL', 'REDIS_URL']) delete env[k];
  server = spawn(process.execPath, ['server.mjs', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: ROOT,
    env,
    stdio: 'ignore',
  });
  for (let i = 0; i < 560; i++) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server with single sign-on did not start');
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await idp?.close();
});

test('"Sign in with Corp ID" goes through the provider and lands signed in', async ({ browser }) => {
  const ctx = await browser.newContext({ storageState: SIGNED_OUT, baseURL: base });
  const page = await ctx.newPage();

  await page.goto('/knowledge');
  await expect(page).toHaveURL(/\/login\?next=%2Fknowledge/);
  const button = page.getByRole('link', { name: 'Sign in with Corp ID' });
  await expect(button).toBeVisible();
  await button.click();

  await expect(page).toHaveURL(`${base}/knowledge`);
  await page.getByTestId('account-menu-button').click();
  await expect(page.getByTestId('account-name')).toHaveText('Grace Hopper');
  await expect(page.getByTestId('account-email')).toHaveText('grace@corp.test');

  // A sign-in that fails is explained, next to the button to try again.
  const again = await browser.newContext({ storageState: SIGNED_OUT, baseURL: base });
  const login = await again.newPage();
  await login.goto('/api/auth/oidc/callback?code=forged&state=forged');
  await expect(login).toHaveURL(/\/login\?error=SSO_STATE_MISSING/);
  await expect(login.getByTestId('sso-error')).toContainText('The sign-in took too long');
  await expect(login.getByRole('link', { name: 'Sign in with Corp ID' })).toBeVisible();
  await Promise.all([ctx.close(), again.close()]);
});
