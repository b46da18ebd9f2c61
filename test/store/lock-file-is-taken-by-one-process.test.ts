// Guarantees: a pid lock file (the embedded database's DATA_DIR, the embedded knowledge index) is held by one process
// at a time — of several processes taking it at the same moment exactly one wins and the others get the owner's
// error — a live owner is refused, a dead owner's lock is taken over, the owner may take it again, releasing removes
// it only while we hold it, and no temporary file is left behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { takeLockFile } from '@/engine/config/lock-file';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'paiflow-lock-'));
  file = path.join(dir, 'x.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.release`, { force: true });
});

const held = (pid: number) => new Error(`held by ${pid}`);

it('a live owner is refused with its pid; the owner may take it again; release removes it', () => {
  writeFileSync(file, String(process.ppid)); // a live process that is not us
  expect(() => takeLockFile(file, held)).toThrow(`held by ${process.ppid}`);
  expect(readFileSync(file, 'utf8')).toBe(String(process.ppid));

  rmSync(file);
  const release = takeLockFile(file, held);
  expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
  takeLockFile(file, held); // the same process again
  release();
  expect(readdirSync(dir)).toEqual([]);

  const mine = takeLockFile(file, held);
  writeFileSync(file, String(process.ppid)); // taken over meanwhile (we were thought dead)
  mine(); // releasing a lock we no longer hold leaves it alone
  expect(readFileSync(file, 'utf8')).toBe(String(process.ppid));
});

it("a dead process's lock, or an empty one, is taken over", () => {
  for (const stale of ['2147483646', '', 'garbage']) {
    writeFileSync(file, stale);
    const release = takeLockFile(file, held);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release();
  }
  expect(readdirSync(dir)).toEqual([]);
});

it('of eight processes taking it at the same moment, exactly one holds it', async () => {
  const moduleUrl = new URL('../../engine/config/lock-file.ts', import.meta.url).href;
  const start = Date.now() + 1500; // all children try at this instant, after their start-up
  // The winner holds the lock until the seven others have tried and exited, however slowly a loaded machine starts
  // them: a winner that exited early would leave a dead process's lock, which a late starter rightly takes over.
  const release = `${dir}.release`;
  const child = `
    const { existsSync } = await import('node:fs');
    const m = await import(${JSON.stringify(moduleUrl)});
    const takeLockFile = m.takeLockFile ?? m.default.takeLockFile; // tsx may load it as CommonJS
    while (Date.now() < ${start}) {}
    try {
      takeLockFile(${JSON.stringify(file)}, (pid) => new Error('held by ' + pid));
      console.log('won');
      const pause = () => new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 1200 && !existsSync(${JSON.stringify(release)}); i++) await pause();
    } catch (e) {
      console.log(e.message);
    }`;
  let exited = 0;
  const runs = Array.from(
    { length: 8 },
    () =>
      new Promise<{ pid: number; out: string }>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.on('error', reject);
        p.on('exit', () => {
          if (++exited === 7) writeFileSync(release, '');
          resolve({ pid: p.pid!, out: out.trim() });
        });
      }),
  );
  const results = await Promise.all(runs);
  const winners = results.filter((r) => r.out === 'won');
  expect(winners).toHaveLength(1);
  for (const r of results) if (r !== winners[0]) expect(r.out).toBe(`held by ${winners[0].pid}`);
  expect(readdirSync(dir)).toEqual(['x.lock']); // the winner exited without releasing; no temporary files
});
