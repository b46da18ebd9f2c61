/**
 * A private PostgreSQL server for tests that stop and start the database (never the shared one): `initdb` into a
 * temp dir, `postgres` on a free port, trust auth. stop() is a fast shutdown (what `pg_ctl stop` does): clients see
 * their connections end and new ones refused; start() brings the same data back. Whether the binaries exist decides
 * whether such a suite runs; under CI=true they are required. PostgreSQL refuses to run as root, so as root the
 * server runs as the `postgres` user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  return null;
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout?.toString().trim());
  const uid = id('-u');
  const gid = id('-g');
  return Number.isInteger(uid) && uid > 0 ? { uid, gid } : null;
}

/** Whether a private PostgreSQL can be started here; prints why a suite is skipped, throws under CI=true. */
export function privatePostgresAvailable(suite: string): boolean {
  const ok = binDir() !== null && (process.getuid?.() !== 0 || postgresUser() !== null);
  if (!ok && process.env.CI === 'true')
    throw new Error(`PostgreSQL server binaries are required under CI for ${suite}`);
  if (!ok) console.warn(`[tests] PostgreSQL server binaries (initdb) not found: ${suite} SKIPPED`);
  return ok;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class PrivatePostgres {
  private proc?: ChildProcess;
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | null,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const bin = binDir();
    if (!bin) throw new Error('PostgreSQL server binaries not found');
    const user = postgresUser();
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-private-pg-'));
    if (user) chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
    const data = path.join(dir, 'data');
    const init = spawnSync(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
      { ...(user ? { uid: user.uid, gid: user.gid } : {}), encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
    const server = new PrivatePostgres(await freePort(), dir, bin, user);
    await server.start();
    return server;
  }

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    const args = ['-D', path.join(this.dir, 'data'), '-p', String(this.port), '-h', '127.0.0.1', '-k', this.dir];
    const settings = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=60'];
    this.proc = spawn(path.join(this.bin, 'postgres'), [...args, ...settings.flatMap((s) => ['-c', s])], {
      ...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
      stdio: 'ignore',
    });
    const deadline = Date.now() + 30_000;
    while (!(await this.ping())) {
      if (this.proc.exitCode !== null) throw new Error(`postgres exited with ${this.proc.exitCode}`);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async ping(): Promise<boolean> {
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  }

  /** A fast shutdown (SIGINT): open sessions are ended, and the port refuses connections until start(). */
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGINT');
    await exited;
  }

  async destroy(): Promise<void> {
    const p = this.proc;
    if (p && p.exitCode === null && p.signalCode === null) {
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
