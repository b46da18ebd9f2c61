/**
 * Code node start-up cost. Cold: the first execution on a fresh `code` pool — a new worker thread, loading the
 * sandbox module (tsx, quickjs-emscripten) and compiling QuickJS's WebAssembly — measured CODE_BENCH_COLD times
 * (default 5), the pools closed before each. Warm: a trivial main on the running pool (CODE_BENCH_WARM times,
 * default 300, after 30 unmeasured), as the node calls it (a round trip to the thread plus a fresh sandbox); and the
 * sandbox alone (a fresh WebAssembly instance, runtime and context, main run, result read) in this thread, to show
 * which part is the sandbox and which the thread hop.
 * Returns rows for bench/run-all.ts; `npx tsx bench/code-node.bench.ts` runs it alone.
 */
import { runSandboxed, type SandboxTask } from '../engine/code/sandbox';
import { closeCpuPools } from '../engine/cpu/pool';
import { codeInWorker } from '../engine/cpu/tasks';
import { latencyRow, timed } from './support/latency-rows';

const COLD = Number(process.env.CODE_BENCH_COLD ?? 5);
const WARM = Number(process.env.CODE_BENCH_WARM ?? 300);
const WARMUP = 30;

const TASK: SandboxTask = {
  code: 'function main(input) { return { greeting: "Hello " + input.name, n: input.n + 1 }; }',
  inputJson: JSON.stringify({ name: 'bench', n: 1 }),
  timeoutMs: 1000,
  memoryMb: 64,
  maxOutputChars: 10_000_000,
};

export async function runCodeNodeBench(): Promise<unknown[]> {
  const cold: number[] = [];
  for (let i = 0; i < COLD; i++) {
    await closeCpuPools();
    cold.push(await timed(() => codeInWorker(TASK)));
  }
  for (let i = 0; i < WARMUP; i++) await codeInWorker(TASK);
  const warm: number[] = [];
  for (let i = 0; i < WARM; i++) warm.push(await timed(() => codeInWorker(TASK)));
  await closeCpuPools();

  for (let i = 0; i < WARMUP; i++) await runSandboxed(TASK);
  const inline: number[] = [];
  for (let i = 0; i < WARM; i++) inline.push(await timed(() => runSandboxed(TASK)));

  return [
    latencyRow('cold: first execution on a fresh pool (thread, module load, WASM compile)', cold),
    latencyRow('warm: trivial main through the code pool (what the node waits for)', warm),
    latencyRow('warm: the sandbox alone, in this thread (fresh instance + runtime + context)', inline),
  ];
}

if (process.argv[1] && /code-node\.bench\.ts$/.test(process.argv[1])) {
  console.log('== Code node: cold and warm start ==');
  runCodeNodeBench().then(
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
