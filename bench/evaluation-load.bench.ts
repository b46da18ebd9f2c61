/**
 * An evaluation under load and the server's responsiveness beside it (issue 36): 100 dataset rows at concurrency 8,
 * each a run of the Support triage example (Start → LLM on the offline demo model, streamed → condition → templates
 * → End), scored by `exact` and `contains`, on the production server (`npm start`; built first when stale) in its
 * own process. Meanwhile this process sends GET /api/health one request at a time, every 10 ms, and reports its
 * p50 / p99 / max — first with the server idle, then during the evaluation. Goal: p99 under 100 ms during it.
 * The evaluation is repeated (BENCH_EVAL_REPEAT, default 20) so that the probe has enough samples for a p99. Also
 * reported: an evaluation's median wall time and rows per second, and that every row was scored.
 *
 * Env: BENCH_EVAL_ROWS (default 100), BENCH_EVAL_CONCURRENCY (default 8), BENCH_EVAL_REPEAT (default 20),
 * BENCH_EVAL_STORES ("pglite,postgres").
 *
 * `runParallelEvaluationsBench` (suite `evaluations`, issue 43): 4 evaluations of 200 rows at concurrency 16 started
 * at once, the load that gave health p99 502 ms before rows shared one budget — on a server with the default row
 * budget (EVALUATION_ROWS_IN_FLIGHT) and on one whose budget lets all 64 rows run (as before the budget), one after
 * the other. Env: BENCH_EVALS_PARALLEL (4), BENCH_EVALS_ROWS (200), BENCH_EVALS_CONCURRENCY (16), BENCH_EVALS_REPEAT
 * (2), BENCH_EVALS_BUDGETS ("default,64"), BENCH_EVAL_STORES.
 */
import { SUPPORT_TRIAGE_EXAMPLE } from '../engine/examples/support-triage';
import { onStores, runIfMain, signInAsOwner, storeLabel, withBenchStore, type StoreKind } from './support/bench-server';
import { ensureBuild, startServer, stopServer } from './support/production-server';

export interface EvaluationLoadRow {
  store: string;
  budget?: string;
  phase: string;
  healthSamples: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  healthErrors: number;
  rows: number | string;
  evaluationS: number | string;
  rowsPerSec: number | string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** GET /api/health back to back with a 10 ms pause until `stop()`; the latencies of the answers. */
function probeHealth(baseUrl: string) {
  const times: number[] = [];
  let errors = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const r = await fetch(`${baseUrl}/api/health`);
        await r.arrayBuffer();
        if (r.ok) times.push(performance.now() - t0);
        else errors++;
      } catch {
        errors++;
      }
      await new Promise((res) => setTimeout(res, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      const sorted = [...times].sort((a, b) => a - b);
      return {
        healthSamples: sorted.length,
        healthP50Ms: round(percentile(sorted, 50)),
        healthP99Ms: round(percentile(sorted, 99)),
        healthMaxMs: round(sorted.at(-1) ?? NaN),
        healthErrors: errors,
      };
    },
  };
}

const MESSAGES = [
  'Checkout is down, this is urgent!',
  '支付页面打不开，情况紧急！',
  'How do I change my invoice address?',
  '请问如何修改发票抬头？',
  'Refunds are failing, fix this right away',
];

interface LoadShape {
  rows: number;
  concurrency: number;
  repeat: number;
  /** Evaluations started at once (each of `rows` rows at `concurrency`). */
  parallel: number;
  /** EVALUATION_ROWS_IN_FLIGHT (and …_PER_WORKSPACE) of the server; unset: the defaults. */
  budget?: number;
}

async function benchStore(kind: StoreKind, shape: LoadShape): Promise<EvaluationLoadRow[]> {
  const { rows, concurrency, repeat, parallel, budget } = shape;
  const budgetEnv: Record<string, string> = budget
    ? { EVALUATION_ROWS_IN_FLIGHT: String(budget), EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE: String(budget) }
    : {};
  const budgetLabel = budget ? `${budget} rows` : 'default';
  return withBenchStore(kind, 'evalbench', async (env) => {
    const { baseUrl, child } = await startServer({ ...env, SEED_EXAMPLE: '0', ...budgetEnv });
    try {
      const store = await storeLabel(baseUrl, kind);
      const send = await signInAsOwner(baseUrl);
      const wf = await send<{ id: string }>('POST', '/api/workflows', {
        name: 'Evaluation bench',
        graph: SUPPORT_TRIAGE_EXAMPLE.graph,
      });
      const dataset = await send<{ id: string }>('POST', '/api/datasets', {
        name: 'bench rows',
        rows: Array.from({ length: rows }, (_, i) => ({
          inputs: { message: `${MESSAGES[i % MESSAGES.length]} #${i}` },
          expected: { route: i % MESSAGES.length < 2 ? 'urgent' : 'else' },
        })),
      });
      const scorers = [
        { name: 'route', type: 'exact', field: 'route' },
        { name: 'summary', type: 'contains', field: 'answer', value: 'Summary' },
      ];
      const evaluate = async (n: number) => {
        const { evaluationId } = await send<{ evaluationId: string }>('POST', `/api/workflows/${wf.id}/evaluations`, {
          datasetId: dataset.id,
          scorers,
          concurrency: n,
        });
        for (;;) {
          const ev = await send<{ status: string; progress: { done: number } }>(
            'GET',
            `/api/evaluations/${evaluationId}`,
          );
          if (!['queued', 'running'].includes(ev.status)) return ev;
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      // Warm-up: route modules, JIT, the quick thread pool.
      await evaluate(concurrency);

      const idle = probeHealth(baseUrl);
      await new Promise((r) => setTimeout(r, 3000));
      const out: EvaluationLoadRow[] = [
        {
          store,
          ...(parallel > 1 ? { budget: budgetLabel } : {}),
          phase: 'idle',
          ...(await idle.stop()),
          rows: '',
          evaluationS: '',
          rowsPerSec: '',
        },
      ];
      // Several evaluations back to back, so that the probe gathers enough samples for a p99.
      const probe = probeHealth(baseUrl);
      const seconds: number[] = [];
      for (let i = 0; i < repeat; i++) {
        const t0 = performance.now();
        const evs = await Promise.all(Array.from({ length: parallel }, () => evaluate(concurrency)));
        seconds.push((performance.now() - t0) / 1000);
        for (const ev of evs)
          if (ev.status !== 'succeeded' || ev.progress.done !== rows)
            throw new Error(`the evaluation ended ${ev.status} with ${ev.progress.done} of ${rows} rows`);
      }
      const health = await probe.stop();
      const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)];
      out.push({
        store,
        ...(parallel > 1 ? { budget: budgetLabel } : {}),
        phase:
          parallel > 1
            ? `${repeat} × ${parallel} evaluations at once of ${rows} rows at concurrency ${concurrency}`
            : `${repeat} evaluations of ${rows} rows at concurrency ${concurrency}`,
        ...health,
        rows: rows * parallel,
        evaluationS: round(median),
        rowsPerSec: round((rows * parallel) / median),
      });
      return out;
    } finally {
      await stopServer(child);
    }
  });
}

export async function runEvaluationLoadBench(): Promise<EvaluationLoadRow[]> {
  const rows = Number(process.env.BENCH_EVAL_ROWS ?? 100);
  const concurrency = Number(process.env.BENCH_EVAL_CONCURRENCY ?? 8);
  const repeat = Number(process.env.BENCH_EVAL_REPEAT ?? 20);
  const stores = (process.env.BENCH_EVAL_STORES ?? 'pglite,postgres').split(',');
  ensureBuild();
  return onStores(stores, (kind) => benchStore(kind, { rows, concurrency, repeat, parallel: 1 }));
}

export async function runParallelEvaluationsBench(): Promise<EvaluationLoadRow[]> {
  const shape = {
    parallel: Number(process.env.BENCH_EVALS_PARALLEL ?? 4),
    rows: Number(process.env.BENCH_EVALS_ROWS ?? 200),
    concurrency: Number(process.env.BENCH_EVALS_CONCURRENCY ?? 16),
    repeat: Number(process.env.BENCH_EVALS_REPEAT ?? 2),
  };
  const budgets = (process.env.BENCH_EVALS_BUDGETS ?? 'default,64').split(',').map((b) => b.trim());
  const stores = (process.env.BENCH_EVAL_STORES ?? 'pglite,postgres').split(',');
  ensureBuild();
  return onStores(stores, async (kind) => {
    const out: EvaluationLoadRow[] = [];
    for (const b of budgets)
      out.push(...(await benchStore(kind, { ...shape, budget: b === 'default' ? 0 : Number(b) })));
    return out;
  });
}

runIfMain(import.meta.url, runEvaluationLoadBench);
