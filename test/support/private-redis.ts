/**
 * A private redis-server for tests that kill and restart Redis (never the shared one): no persistence, so a restart
 * comes back empty, as after a real crash of a cache-only Redis. Whether the binary exists decides whether such a
 * suite runs; under CI=true it is required.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { until } from './until';

/** Whether `redis-server` can be started here; prints why a suite is skipped, throws under CI=true. */
export function redisServerAvailable(suite: string): boolean {
  const ok = spawnSync('redis-server', ['--version']).status === 0;
  if (!ok && process.env.CI === 'true') throw new Error(`redis-server is required under CI for ${suite}`);
  if (!ok) console.warn(`[tests] redis-server binary not found: ${suite} SKIPPED`);
  return ok;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class PrivateRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}

  static async create(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.start();
    return r;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: 'ignore' },
    );
    await until(() => this.ping(), `redis-server on port ${this.port}`, 10_000, 50);
  }

  async ping(): Promise<boolean> {
    const r = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      r.disconnect();
    }
  }

  /** SIGKILL: the server's data is gone, clients see their connections drop. */
  async kill() {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
}
