/**
 * Guarantee: a Code node's JavaScript runs in a worker thread, so the server goes on while it runs: with an infinite
 * loop running in one Code node, the event loop keeps turning, and another run's Code node starts and finishes; the
 * loop is still running afterwards. A thread that must be ended from outside — a run cancelled mid-loop, or code
 * stuck where the sandbox's own deadline cannot stop it (QuickJS's JSON.stringify of a very deeply nested value does
 * not check for interrupts) — is replaced, and the next Code node runs; the stuck one fails with CODE_TIMEOUT. Shown
 * by the order of events, not by timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '@/engine/config/settings';
import { cpuLimits, useCpuLimits } from '@/engine/cpu/limits';
import { closeCpuPools } from '@/engine/cpu/pool';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventOf, finishedCode, runCode, startCode } from '@/test/nodes/code-node-support';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('pglite');
});
afterAll(async () => {
  await h?.close();
  await closeCpuPools();
  useCpuLimits(undefined);
});

/** The Code nodes' threads from now on (CPU_WORKER_THREADS, as the app would give it); the pools start again. */
async function codeThreads(n: number) {
  await closeCpuPools();
  const limits = cpuLimits(parseSettings({ CPU_WORKER_THREADS: String(n) }));
  useCpuLimits(() => limits);
}

const LOOP = 'function main() { while (true) {} }';
const QUICK = 'function main(input) { return { doubled: input.n * 2 }; }';
/**
 * Seconds of uninterruptible work inside QuickJS (see the top of this file): its JSON.stringify is quadratic in the
 * nesting depth (measured in the worker: 10,000 levels 1.4 s, 20,000 past 3 s) and checks no interrupt meanwhile.
 */
const STUCK = 'function main() { let v = []; for (let i = 0; i < 30000; i++) v = [v]; return JSON.stringify(v); }';

const started = (h: Harness, runId: string) => eventOf(h, runId, (e) => e.type === 'node.started' && e.nodeId === 'c');

describe('a Code node in a worker thread', () => {
  it('leaves the event loop and other Code nodes running while it loops', async () => {
    await codeThreads(2); // a second thread for the other run's Code node
    const loop = await startCode(h, { code: LOOP, timeoutMs: 30_000 });
    await started(h, loop);

    let turns = 0;
    for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(() => r(void turns++)));
    const quick = await runCode(h, { code: QUICK, inputs: { n: 21 } });
    expect(turns).toBe(50);
    expect(quick.run.status).toBe('succeeded');
    expect(quick.node.output).toEqual({ doubled: 42 });

    // All of that happened while the loop still ran.
    expect(h.runs.isActive(loop)).toBe(true);
    expect((await h.store.getRun(loop))!.status).toBe('running');
    await h.runs.cancel(loop);
    const cancelled = await finishedCode(h, loop);
    expect(cancelled.run.status).toBe('cancelled');
  });

  it('replaces the thread of a run cancelled mid-loop: the next Code node runs on its one thread', async () => {
    await codeThreads(1);
    const loop = await startCode(h, { code: LOOP, timeoutMs: 30_000 });
    await started(h, loop);
    const next = await startCode(h, { code: QUICK, inputs: { n: 1 } }); // waits for the only thread
    await h.runs.cancel(loop);
    // If the looping thread were not ended, `next` would wait for its 30 s limit: past this test's own timeout.
    const done = await finishedCode(h, next);
    expect(done.run.status).toBe('succeeded');
    expect(done.node.output).toEqual({ doubled: 2 });
    expect((await finishedCode(h, loop)).run.status).toBe('cancelled');
  }, 20_000);

  it('ends a thread stuck past the sandbox deadline (CODE_TIMEOUT); the Code node queued behind it runs', async () => {
    await codeThreads(1);
    const stuck = await startCode(h, { code: STUCK, timeoutMs: 1000 });
    await started(h, stuck);
    const next = await startCode(h, { code: QUICK, inputs: { n: 5 } });
    const failed = await finishedCode(h, stuck);
    expect(failed.node.error).toMatchObject({ code: 'CODE_TIMEOUT' });
    expect(failed.node.error?.message).toMatch(/within 1000 ms/);
    const done = await finishedCode(h, next);
    expect(done.run.status).toBe('succeeded');
    expect(done.node.output).toEqual({ doubled: 10 });
    // The thread that took `next` is a new one; it runs the following node as well.
    expect((await runCode(h, { code: QUICK, inputs: { n: 6 } })).node.output).toEqual({ doubled: 12 });
  });
});
