// Starts the app for the e2e suite and the editor benchmark: `next build` (its log only shown on failure, so the
// test output stays readable) then `npm start` (server.mjs); or `next dev` with E2E_DEV=1. Playwright stops the process
// group.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = process.env.PORT || '3123';
const next = path.join('node_modules', '.bin', 'next');

if (process.env.E2E_DEV === '1') {
  spawn(next, ['dev', '--port', port, '--hostname', '127.0.0.1'], { stdio: 'inherit' }).on('exit', (c) =>
    process.exit(c ?? 1),
  );
} else {
  if (process.env.E2E_SKIP_BUILD !== '1') {
    const t0 = Date.now();
    const b = spawnSync(next, ['build'], { encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
    const log = path.join(tmpdir(), 'paiflow-e2e-next-build.log');
    writeFileSync(log, `${b.stdout ?? ''}\n${b.stderr ?? ''}`);
    if (b.status !== 0) {
      process.stderr.write(
        `next build failed (exit ${b.status}); log: ` +
          `${log}\n${(b.stdout ?? '').slice(-6000)}\n${(b.stderr ?? '').slice(-6000)}\n`,
      );
      process.exit(1);
    }
    process.stderr.write(`next build done in ${Math.round((Date.now() - t0) / 1000)} s (log: ${log})\n`);
  }
  // The production server as `npm start` runs it (Next, plus the published API's routes served directly).
  spawn(process.execPath, ['server.mjs', '--port', port, '--hostname', '127.0.0.1'], { stdio: 'inherit' }).on(
    'exit',
    (c) => process.exit(c ?? 1),
  );
}
