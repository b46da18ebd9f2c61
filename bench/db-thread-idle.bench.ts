/**
 * Embedded database thread bench: the CPU this process spends in the 250 ms after a write, when the thread polls for
 * the next request (a plain write) and when it goes to sleep at once (a write marked `last`, a run's final commit).
 * With `spinMs: 300` the first figure should be most of a core and the second close to nothing; it moved here from
 * test/store/embedded-database-thread.test.ts because CPU thresholds fail on a loaded machine.
 * Returns rows for bench/run-all.ts; `npx tsx bench/db-thread-idle.bench.ts` runs it alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RemotePGlite } from '../engine/store/prisma/pglite-remote';

const SPIN_MS = 300;
const WINDOW_MS = 250;
const ROUNDS = Number(process.env.DB_THREAD_BENCH_ROUNDS ?? 5);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runDbThreadIdleBench(): Promise<unknown[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-bench-db-thread-'));
  const db = await RemotePGlite.create(path.join(dir, 'pglite'), { spinMs: SPIN_MS });
  try {
    await db.exec('CREATE TABLE l (i int)');
    /** CPU time of this process (both threads) in the window after one write, in ms. */
    const cpuAfter = async (last: boolean) => {
      await sleep(SPIN_MS + 50); // let the polling after the previous request end
      await db.write('bench_l', 'INSERT INTO l VALUES ($1)', [1], { last });
      const before = process.cpuUsage();
      await sleep(WINDOW_MS);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000;
    };
    const polling: number[] = [];
    const sleeping: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      polling.push(await cpuAfter(false));
      sleeping.push(await cpuAfter(true));
    }
    const row = (after: string, xs: number[]) => ({
      after,
      'cpu ms (median)': +median(xs).toFixed(1),
      'cpu ms (min)': +Math.min(...xs).toFixed(1),
      'cpu ms (max)': +Math.max(...xs).toFixed(1),
      'share of one core': `${Math.round((median(xs) / WINDOW_MS) * 100)}%`,
    });
    return [row(`a write (thread polls for ${SPIN_MS} ms)`, polling), row('a write marked `last` (sleeps)', sleeping)];
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /db-thread-idle\.bench\.ts$/.test(process.argv[1])) {
  console.log(`== Embedded database thread: CPU in the ${WINDOW_MS} ms after a write (${ROUNDS} rounds) ==`);
  runDbThreadIdleBench().then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
