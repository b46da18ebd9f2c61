/**
 * The production server for the HTTP benchmarks, started as a user starts it (`npm start`, i.e. server.mjs) in a
 * process of its own, built first when `.next` is missing or older than a source.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The newest modification time of the sources the production build is made from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(tsx?|mjs|css)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds the production server when there is no build, or when a source is newer than it (a stale build would be
 * measured).
 */
export function ensureBuild() {
  const id = path.join(ROOT, '.next', 'BUILD_ID');
  const built = existsSync(id) ? statSync(id).mtimeMs : 0;
  const newest = Math.max(...['app', 'components', 'engine', 'lib'].map((d) => newestSource(path.join(ROOT, d))));
  if (built > newest) return;
  console.log(
    built
      ? '[bench] sources changed since the production build: running `npm run build`'
      : '[bench] no production build yet: running `npm run build` first',
  );
  const r = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export interface ProductionServer {
  baseUrl: string;
  child: ChildProcess;
  /** What the server printed (the last 100 kB). */
  log(): string;
}

/** `nodeArgs` go to node before server.mjs (e.g. `--max-old-space-size=512`). */
export async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ProductionServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(ROOT, 'server.mjs'), '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const append = (d: Buffer) => {
    log = (log + d.toString()).slice(-100_000);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${log}`);
    // "ready" is printed once the published API's routes are loaded and served directly.
    if (
      log.includes('PaiFlow ready') &&
      (await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { baseUrl, child, log: () => log };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health within 60 s: ${log}`);
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}
