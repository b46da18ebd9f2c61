/**
 * Shared by playwright.config.ts (e2e) and bench/playwright.bench.config.ts: Debian's Chromium, a free port and a
 * fresh DATA_DIR for the app, and the web servers (the app and a small local HTTP service for HTTP nodes).
 * Values are fixed once in process.env so Playwright's worker processes, which re-read the config, agree.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The repository root: web server commands run there whichever config (e2e or bench) started them. */
export const ROOT = path.resolve(typeof __dirname === 'string' ? path.join(__dirname, '..', '..') : process.cwd());

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function freePort(): number {
  const out = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();" +
      "s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]);
  return Number(out.toString());
}

/** The owner the app creates at start-up (PAIFLOW_OWNER_*); global-setup.ts signs in as them once for all specs. */
export const OWNER = { email: 'owner@example.test', password: 'owner-password-1', name: 'Owner' };

export interface E2eEnv {
  appPort: number;
  slowPort: number;
  dataDir: string;
  baseURL: string;
  slowURL: string;
  /** The owner's signed-in cookies (Playwright storageState), written by global-setup.ts. */
  authFile: string;
}

export function e2eEnv(): E2eEnv {
  process.env.PAIFLOW_E2E_PORT ??= String(freePort());
  process.env.PAIFLOW_E2E_SLOW_PORT ??= String(freePort());
  // Only named here (the app creates it): Playwright may evaluate the config in more than one process.
  process.env.PAIFLOW_E2E_DATA_DIR ??= path.join(
    tmpdir(),
    `paiflow-e2e-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  process.env.PAIFLOW_E2E_AUTH_FILE ??= path.join(
    tmpdir(),
    `paiflow-e2e-auth-${process.pid}-${randomBytes(4).toString('hex')}.json`,
  );
  const appPort = Number(process.env.PAIFLOW_E2E_PORT);
  const slowPort = Number(process.env.PAIFLOW_E2E_SLOW_PORT);
  return {
    appPort,
    slowPort,
    dataDir: process.env.PAIFLOW_E2E_DATA_DIR,
    baseURL: `http://127.0.0.1:${appPort}`,
    slowURL: `http://127.0.0.1:${slowPort}`,
    authFile: process.env.PAIFLOW_E2E_AUTH_FILE,
  };
}

/**
 * The app runs as a production build (`next build` + `next start`): it does not conflict with a `next dev`
 * already running in the same folder (Next allows one dev server per folder), and production React gives
 * meaningful numbers to the benchmark. E2E_DEV=1 uses `next dev` instead (no build, slower pages);
 * E2E_SKIP_BUILD=1 reuses the existing .next build.
 */
export function webServers(env: E2eEnv) {
  const appEnv = {
    DATA_DIR: env.dataDir,
    NEXT_TELEMETRY_DISABLED: '1',
    CHECKPOINT_DISABLE: '1',
    HTTP_ALLOWLIST: `127.0.0.1:${env.slowPort}`,
    OPENAI_API_KEY: '', // the offline demo model: deterministic runs
    PORT: String(env.appPort),
    PAIFLOW_OWNER_EMAIL: OWNER.email,
    PAIFLOW_OWNER_PASSWORD: OWNER.password,
    PAIFLOW_OWNER_NAME: OWNER.name,
  };

  return [
    {
      command: `node e2e/support/slow-server.mjs ${env.slowPort}`,
      url: `${env.slowURL}/ok`,
      reuseExistingServer: false,
      timeout: 20_000,
      cwd: ROOT,
    },
    {
      command: 'node e2e/support/start-app.mjs',
      url: `${env.baseURL}/api/health`,
      env: appEnv,
      reuseExistingServer: false,
      timeout: 300_000,
      cwd: ROOT,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
  ];
}
