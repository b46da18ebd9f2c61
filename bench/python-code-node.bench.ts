/**
 * Python Code node start-up cost (issue 45 asks ≤ 1 s p50 warm). Cold: the first execution on a fresh `python` pool
 * — a new worker thread starting its Pyodide interpreter (WebAssembly compile, the standard library unpacked into
 * memory, the lock-down) — measured PYTHON_BENCH_COLD times (default 3), the pools closed before each. Warm: a small
 * Dify-shaped main on the running pool (PYTHON_BENCH_WARM times, default 100, after 5 unmeasured), as the node calls
 * it: the round trip to the thread, a fresh namespace, main(**inputs), the result as JSON and the reset after it.
 * Returns rows for bench/run-all.ts; `npx tsx bench/python-code-node.bench.ts` runs it alone.
 */
import type { SandboxTask } from '../engine/code/sandbox';
import { closeCpuPools } from '../engine/cpu/pool';
import { pythonInWorker } from '../engine/cpu/tasks';
import { runIfMain } from './support/bench-server';
import { latencyRow, timed } from './support/latency-rows';

const COLD = Number(process.env.PYTHON_BENCH_COLD ?? 3);
const WARM = Number(process.env.PYTHON_BENCH_WARM ?? 100);
const WARMUP = 5;

const TASK: SandboxTask = {
  code: [
    'import json, re',
    'def main(name: str, n: int) -> dict:',
    '    words = re.findall(r"\\w+", name)',
    '    return {"greeting": "Hello " + name, "n": n + 1, "words": words, "doc": json.dumps({"n": n})}',
  ].join('\n'),
  inputJson: JSON.stringify({ name: 'bench', n: 1 }),
  timeoutMs: 1000,
  memoryMb: 64,
  maxOutputChars: 10_000_000,
};

export async function runPythonCodeNodeBench(): Promise<unknown[]> {
  const cold: number[] = [];
  for (let i = 0; i < COLD; i++) {
    await closeCpuPools();
    cold.push(await timed(() => pythonInWorker(TASK)));
  }
  for (let i = 0; i < WARMUP; i++) await timed(() => pythonInWorker(TASK));
  const warm: number[] = [];
  for (let i = 0; i < WARM; i++) warm.push(await timed(() => pythonInWorker(TASK)));
  await closeCpuPools();
  return [
    latencyRow('cold: first execution on a fresh pool (thread, Pyodide start, lock-down)', cold),
    latencyRow('warm: small Dify-shaped main through the python pool (what the node waits for)', warm),
  ];
}

runIfMain(import.meta.url, runPythonCodeNodeBench);
