/**
 * Guarantees: a fresh install (no PAIFLOW_OWNER_*, a new DATA_DIR) shows "Create the owner account" on whatever page
 * is opened, and the form creates the owner, who lands in the workflow list with the seeded example.
 * It starts a production server of its own (the suite's app already has its owner). What the API answers before and
 * after setup (401s, the seeded example, a second setup refused with 409 SETUP_DONE) is
 * acceptance/first-run-setup-then-only-sessions-and-tokens-get-in.test.ts; that the example runs offline,
 * e2e/evaluate-tab-runs-compares-and-adds-a-run-to-a-dataset.spec.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from './support/environment';
import { SIGNED_OUT } from './support/api';

let server: ChildProcess | undefined;
let base = '';

test.beforeAll(async () => {
  // A production server's start (a fresh database, the seeded example) takes minutes on a loaded 2-core machine.
  test.setTimeout(300_000);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'paiflow-first-run-')),
    OPENAI_API_KEY: '',
  };
  for (const k of ['PAIFLOW_OWNER_EMAIL', 'PAIFLOW_OWNER_PASSWORD', 'DATABASE_URL', 'REDIS_URL']) delete env[k];
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
  throw new Error('the fresh server did not start');
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('a fresh install asks for the owner first, then opens the list with the example', async ({ browser }) => {
  const ctx = await browser.newContext({ storageState: SIGNED_OUT, baseURL: base });
  const page = await ctx.newPage();

  // Before setup: a page leads to setup.
  await page.goto('/knowledge');
  await expect(page).toHaveURL(/\/setup/);
  await expect(page.getByRole('heading', { name: 'Create the owner account' })).toBeVisible();

  await expect(page.getByTestId('auth-submit')).toBeEnabled();
  await page.getByLabel('Name').fill('First Owner');
  await page.getByLabel('Email').fill('first@example.test');
  await page.getByLabel('Password').fill('first-owner-password');
  await page.getByTestId('auth-submit').click();

  // After setup: the workflow list, with the seeded example in the owner's workspace.
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await expect(page.getByTestId('workflow-row').filter({ hasText: 'Support triage' })).toHaveCount(1);
  await expect(page.getByTestId('account-menu-button')).toContainText('First Owner');
  await ctx.close();
});
