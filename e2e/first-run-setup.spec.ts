/**
 * Guarantees: a fresh install (no PAIFLOW_OWNER_*, a new DATA_DIR) shows "Create the owner account" and nothing else
 * is reachable until it is done — every page leads to setup, the API answers 401 — then the owner lands in the
 * editor's list with the seeded example, which runs offline; a second setup is refused.
 * It starts a production server of its own (the suite's app already has its owner).
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
  for (let i = 0; i < 120; i++) {
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

test('a fresh install asks for the owner first, then opens the editor with the runnable example', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ storageState: SIGNED_OUT, baseURL: base });
  const page = await ctx.newPage();

  // Before setup: pages lead to setup, the API refuses.
  const state = await (await page.request.get('/api/auth/state')).json();
  expect(state).toEqual({ setupRequired: true, authenticated: false });
  expect((await page.request.get('/api/workflows')).status()).toBe(401);
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
  const example = page.getByTestId('workflow-row').filter({ hasText: 'Support triage' });
  await expect(example).toHaveCount(1);
  const list = await (await page.request.get('/api/workflows')).json();
  const wf = list.find((w: { name: string }) => w.name.startsWith('Support triage'));
  const started = await page.request.post(`/api/workflows/${wf.id}/runs`, {
    data: { inputs: { message: 'Our checkout is down, urgent!' } },
  });
  expect(started.status()).toBe(202);
  const { runId } = await started.json();
  await expect
    .poll(async () => (await (await page.request.get(`/api/runs/${runId}`)).json()).status, { timeout: 30_000 })
    .toBe('succeeded');

  // Setup happens once.
  const again = await page.request.post('/api/auth/setup', {
    data: { email: 'second@example.test', password: 'second-owner-password', name: 'Second' },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.code).toBe('SETUP_DONE');
  await ctx.close();
});
