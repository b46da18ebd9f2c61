/**
 * Guarantee: the quick start works as printed — `npm run dev` opened at http://127.0.0.1:PORT or at the "Network"
 * address `next dev` prints reaches the app (the sign-in page), instead of sitting on "Loading…" because the dev
 * server refuses its own scripts and HMR socket to an origin it does not trust (allowedDevOrigins).
 * While the first visit waits on the dev server compiling, the page says so. Knowledge bases index and answer under
 * `next dev` too. It starts `npm run dev` of its own (which builds into .next/dev, so the suite's production build
 * is untouched).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from './support/environment';
import { SIGNED_OUT } from './support/api';

test.use({ storageState: SIGNED_OUT });

let dev: ChildProcess | undefined;
let output = '';

test.afterAll(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

test('npm run dev reaches the app at 127.0.0.1 and at its Network address, and knowledge bases work', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'paiflow-dev-')),
    OPENAI_API_KEY: '',
    PAIFLOW_OWNER_EMAIL: 'dev-owner@example.test',
    PAIFLOW_OWNER_PASSWORD: 'dev-owner-password-1',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_MODE', 'NODE_ENV']) delete env[k];
  // As the README says: `npm run dev` (with a port of its own, so it never meets a developer's server).
  dev = spawn('npm', ['run', 'dev', '--', '--port', String(port)], { cwd: ROOT, env, detached: true });
  dev.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  dev.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  await expect.poll(() => /Ready in/.test(output), { timeout: 120_000 }).toBe(true);
  const network = /Network:\s+(http:\/\/\S+)/.exec(output)?.[1];

  const messages: string[] = [];
  page.on('console', (m) => messages.push(m.text()));
  let first = true;
  for (const base of [`http://127.0.0.1:${port}`, ...(network ? [network] : [])]) {
    await page.goto(`${base}/`, { timeout: 180_000 });
    // The first visit waits while the dev server compiles the API routes it calls; the page says why.
    if (first) await expect(page.getByTestId('first-compile-note')).toContainText('compiles each page');
    first = false;
    // The first request compiles the page and opens a fresh database: minutes on a busy 2-core machine.
    await expect(page.getByRole('button', { name: 'Sign in' }), `${base}\n${output.slice(-3000)}`).toBeVisible({
      timeout: 180_000,
    });
    await expect(page).toHaveURL(new RegExp(`^${base.replace(/[.[\]]/g, '\\$&')}/login`));
  }
  expect(output).not.toMatch(/Blocked cross-origin request/);
  expect(messages.filter((m) => /_next\/hmr.*failed/.test(m))).toEqual([]);

  // Knowledge bases work under `next dev` too (its bundle mangled package paths differently from the build's).
  const base = `http://127.0.0.1:${port}`;
  const api = page.request;
  const headers = { origin: base };
  // Under `next dev` each route compiles on its first request: minutes on a busy 2-core machine.
  const COMPILE = 180_000;
  const login = await api.post(`${base}/api/auth/login`, {
    data: { email: env.PAIFLOW_OWNER_EMAIL, password: env.PAIFLOW_OWNER_PASSWORD },
    timeout: COMPILE,
  });
  expect(login.status(), await login.text()).toBe(200);
  const kb = await (
    await api.post(`${base}/api/knowledge-bases`, { data: { name: 'Dev KB' }, headers, timeout: COMPILE })
  ).json();
  for (const [title, text] of [
    ['Returns', 'Customers may return an unused item within 30 days of delivery.'],
    ['退款政策', '退款申请审核通过后，款项将在七个工作日内原路退回。'],
  ]) {
    const up = await api.post(`${base}/api/knowledge-bases/${kb.id}/documents`, {
      data: { title, text },
      headers,
      timeout: COMPILE,
    });
    expect(up.status(), await up.text()).toBe(202);
  }
  await expect
    .poll(
      async () =>
        (await (await api.get(`${base}/api/knowledge-bases/${kb.id}/documents`, { timeout: COMPILE })).json()).map(
          (d: { status: string }) => d.status,
        ),
      { timeout: 120_000 },
    )
    .toEqual(['indexed', 'indexed']);
  for (const [query, title] of [
    ['how many days to return an item', 'Returns'],
    ['退款多久到账', '退款政策'],
  ]) {
    const res = await api.post(`${base}/api/knowledge-bases/${kb.id}/search`, {
      data: { query },
      headers,
      timeout: COMPILE,
    });
    expect(res.status(), await res.text()).toBe(200);
    expect((await res.json()).hits[0].title).toBe(title);
  }
});
