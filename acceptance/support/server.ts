/**
 * Starts PaiFlow exactly as the README tells a user to: `npm start` (after `npm run build`) in the repository, with a
 * fresh DATA_DIR, and — for the PostgreSQL + Redis and queue profiles — DATABASE_URL / REDIS_URL (its own schema and
 * key prefix, so runs never see each other's data) and `npm run worker`. Nothing here imports the app: the suite
 * knows the server only by its port.
 *
 * Each process is started in a process group of its own, so that `kill('SIGKILL')` ends npm and the node process it
 * started together, as a crash or an OOM kill would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The three ways the README runs the server. */
export type Profile = 'embedded' | 'postgres' | 'queue';
export const PROFILES: readonly Profile[] = ['embedded', 'postgres', 'queue'];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** The owner the server creates at start-up (PAIFLOW_OWNER_*, as in Docker and CI). */
export const OWNER = { email: 'owner@acceptance.test', password: 'acceptance-owner-1', name: 'Acceptance Owner' };

/**
 * A port free now, below Linux's ephemeral range (32768–60999): a port a journey holds for minutes (a receiver it
 * closes and opens again, a server it restarts on the same port) is never taken meanwhile by the local end of some
 * outbound connection, as a port the kernel handed out from that range can be.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
    if (attempt > 200) throw new Error('no free port between 20000 and 32000');
  }
}

export interface ServerOptions {
  profile: Profile;
  /** More environment (e.g. HTTP_ALLOWLIST for a local service); an empty string unsets a variable. */
  env?: Record<string, string>;
  /** Create the owner at start-up (default true); false leaves the first-run setup page to a user. */
  owner?: boolean;
  /** Reuse a DATA_DIR / schema / Redis prefix (a restart of the same deployment). */
  state?: DeploymentState;
}

/** What makes two starts the same deployment: its data dir, database schema and Redis prefix. */
export interface DeploymentState {
  dataDir: string;
  schema: string;
  redisPrefix: string;
}

export interface RunningServer {
  profile: Profile;
  baseURL: string;
  port: number;
  state: DeploymentState;
  /** The environment the app and the worker run with. */
  env: Record<string, string>;
  /** What the processes printed (the last 200 kB): shown when a journey fails. */
  log(): string;
  /** Sends `signal` to the app (and the worker); SIGKILL is a crash. Resolves when they have exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** A start of the same deployment (same data, same port), after kill(). */
  restart(): Promise<RunningServer>;
}

export function newState(): DeploymentState {
  const id = randomBytes(5).toString('hex');
  return {
    dataDir: mkdtempSync(path.join(tmpdir(), `paiflow-acceptance-${id}-`)),
    schema: `acc_${id}`,
    redisPrefix: `paiflow-acc-${id}:`,
  };
}

function profileEnv(profile: Profile, state: DeploymentState): Record<string, string> {
  const base: Record<string, string> = { DATA_DIR: state.dataDir };
  if (profile === 'embedded') return { ...base, DATABASE_URL: '', REDIS_URL: '', QUEUE_MODE: '' };
  const real = {
    ...base,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: state.schema,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: state.redisPrefix,
  };
  return profile === 'queue' ? { ...real, QUEUE_MODE: '1' } : { ...real, QUEUE_MODE: '' };
}

function spawnNpm(args: string[], env: Record<string, string>, onOutput: (s: string) => void): ChildProcess {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  // The suite's own settings must not leak into the server: it reads only what a user would set.
  for (const k of Object.keys(merged)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete merged[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  const child = spawn('npm', args, { cwd: ROOT, env: merged, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (b: Buffer) => onOutput(b.toString()));
  child.stderr!.on('data', (b: Buffer) => onOutput(b.toString()));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Waits until `/api/health` answers 200 (or the process exits, or the time is up). */
async function waitHealthy(baseURL: string, child: ChildProcess, log: () => string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${log()}`);
    const res = await fetch(`${baseURL}/api/health`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server was not healthy within ${timeoutMs} ms:\n${log()}`);
}

/** Waits until the worker says it takes runs (scripts/worker.ts prints it). */
async function waitWorker(child: ChildProcess, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (/taking runs/.test(output())) return;
    if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}):\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the worker did not start within ${timeoutMs} ms:\n${output()}`);
}

export async function startServer(opts: ServerOptions, port?: number): Promise<RunningServer> {
  const state = opts.state ?? newState();
  port ??= await freePort();
  const env: Record<string, string> = {
    ...profileEnv(opts.profile, state),
    NEXT_TELEMETRY_DISABLED: '1',
    CHECKPOINT_DISABLE: '1',
    // The offline demo model, whatever the developer's shell has.
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    ...(opts.owner === false
      ? { PAIFLOW_OWNER_EMAIL: '', PAIFLOW_OWNER_PASSWORD: '' }
      : { PAIFLOW_OWNER_EMAIL: OWNER.email, PAIFLOW_OWNER_PASSWORD: OWNER.password, PAIFLOW_OWNER_NAME: OWNER.name }),
    ...opts.env,
  };
  let output = '';
  const append = (who: string) => (s: string) => {
    output = (output + s.replace(/^(?=.)/gm, `[${who}] `)).slice(-200_000);
  };
  const app = spawnNpm(['start', '--', '--port', String(port), '--hostname', '127.0.0.1'], env, append('app'));
  const baseURL = `http://127.0.0.1:${port}`;
  const processes = [app];
  try {
    await waitHealthy(baseURL, app, () => output);
    if (opts.profile === 'queue') {
      const worker = spawnNpm(['run', 'worker'], env, append('worker'));
      processes.push(worker);
      await waitWorker(worker, () => output);
    }
  } catch (e) {
    for (const p of processes) killGroup(p, 'SIGKILL');
    throw e;
  }
  const server: RunningServer = {
    profile: opts.profile,
    baseURL,
    port,
    state,
    env,
    log: () => output,
    async kill(signal = 'SIGTERM') {
      for (const p of processes) killGroup(p, signal);
      const all = Promise.all(processes.map(exited));
      const timer = setTimeout(() => processes.forEach((p) => killGroup(p, 'SIGKILL')), 15_000);
      await all;
      clearTimeout(timer);
    },
    restart: () => startServer({ ...opts, state }, port),
  };
  return server;
}
