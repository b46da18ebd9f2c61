/**
 * `npm run bench` runs every benchmark and prints one table each. `BENCH_ONLY=dag,queue` picks some;
 * `npm run bench:api` runs the published-endpoint load test alone.
 */
import { runDagOverheadBench } from './dag-overhead.bench';

const SUITES: Record<string, { title: string; run: () => Promise<unknown[]> }> = {
  dag: {
    title:
      'Engine overhead per node (no-op chain, durable snapshots; each configuration warmed up, ' +
      'then alternating with raw LangGraph.js; ms per node, xRaw = median same-round ratio to raw)',
    run: runDagOverheadBench,
  },
  queue: {
    title: 'Time to first trace event and memory per open run (in-process and queue mode)',
    run: async () => (await import('./queue.bench')).runQueueBench(),
  },
  knowledge: {
    title: 'Embedded knowledge store: indexing throughput and query latency',
    run: async () => (await import('./knowledge.bench')).runKnowledgeBench(),
  },
  retrieval: {
    title:
      "Retrieval on real documents (a Chinese framework guide, an English library's docs; heading and paraphrase " +
      'queries): hit@1/5, MRR, nDCG@10 per mode and setting, indexing documents/s, search p50/p95',
    run: async () => (await import('./retrieval.bench')).runRetrievalBench(),
  },
  'db-thread': {
    title: 'Embedded database thread: CPU in the 250 ms after a write, polling vs asleep after a `last` write',
    run: async () => (await import('./db-thread-idle.bench')).runDbThreadIdleBench(),
  },
  api: {
    title: 'Published endpoint (sync mode, 3-node workflow, offline model): runs/s and latency',
    run: async () => (await import('./api.bench')).runApiBench(),
  },
  soak: {
    title:
      'Soak: 200,000 published sync runs at 50 connections on a 512 MB heap; RSS (MB) at each tenth of the runs ' +
      'and after 40 s of rest — it must plateau, and no request may fail',
    run: async () => (await import('./soak.bench')).runSoakBench(),
  },
  webhook: {
    title:
      'Webhook trigger (HMAC-signed, async 202) vs the published endpoint (async) on one 3-node workflow: ' +
      'accepted and completed runs/s, latency',
    run: async () => (await import('./webhook-trigger.bench')).runWebhookTriggerBench(),
  },
  health: {
    title:
      '/api/health over HTTP while CPU-heavy work runs (regex bomb, PDF bombs, a 10,000-chunk upload); ' +
      'goal p99 < 50 ms',
    run: async () => (await import('./health-under-cpu-load.bench')).runHealthUnderCpuLoadBench(),
  },
  'long-run': {
    title:
      'A 402-node chain of pure nodes on each engine: ms per node alone and beside published sync calls over HTTP, ' +
      "those calls' latency, the long run's 202, the event loop's delay",
    run: async () => (await import('./long-run-beside-published-calls.bench')).runLongRunBench(),
  },
  'agent-checkpoint': {
    title:
      'Agent checkpoint cost per round (20 rounds of one tool call, in-process scripted model; ' +
      'with checkpoints vs a no-op checkpoint, alternating; median ms per round)',
    run: async () => (await import('./agent-checkpoint.bench')).runAgentCheckpointBench(),
  },
  otel: {
    title:
      'OpenTelemetry export per 12-node run (OTLP/HTTP JSON to a local collector; without / with export / with ' +
      'content, alternating blocks; median ms per run and overhead, wall and CPU; goal < 5 %)',
    run: async () => (await import('./otel-export.bench')).runOtelExportBench(),
  },
  'request-language': {
    title:
      "What choosing each API request's language costs (route() with ?lang=/cookie/Accept-Language and the " +
      'async-local language, against the bare wrapper, on a trivial handler; ns per call)',
    run: async () => (await import('./request-language.bench')).runRequestLanguageBench(),
  },
  'redis-retention': {
    title: 'Redis memory of the event bus per 10,000 runs, retained and after EVENTS_RETENTION_S',
    run: async () => (await import('./redis-event-retention.bench')).runRedisEventRetentionBench(),
  },
  'code-node': {
    title:
      'Code node (QuickJS/WebAssembly sandbox in a worker thread): cold start on a fresh pool, warm start of a ' +
      'trivial main through the pool and in-thread',
    run: async () => (await import('./code-node.bench')).runCodeNodeBench(),
  },
  python: {
    title:
      'Python Code node (Pyodide in a worker thread): cold start on a fresh pool, warm start of a small ' +
      'Dify-shaped main through the pool (the issue asks <= 1 s p50 warm)',
    run: async () => (await import('./python-code-node.bench')).runPythonCodeNodeBench(),
  },
  'loop-concurrency': {
    title:
      'A 20-item list loop whose body is one ~50 ms HTTP call: concurrency 1 vs 5 (alternating; median ms per run, ' +
      'speed-up; the issue expects ~4x)',
    run: async () => (await import('./loop-concurrency')).runLoopConcurrencyBench(),
  },
  evaluation: {
    title:
      'An evaluation of 100 rows at concurrency 8 (Support triage example, offline model) on the production server: ' +
      'GET /api/health p50/p99/max idle and during it (goal p99 < 100 ms), its wall time and rows/s',
    run: async () => (await import('./evaluation-load.bench')).runEvaluationLoadBench(),
  },
  evaluations: {
    title:
      '4 evaluations × 200 rows × concurrency 16 started at once (issue 43), with the default row budget and with ' +
      'one that lets every row run (as before it): GET /api/health p50/p99/max (goal p99 < 100 ms), wall time, rows/s',
    run: async () => (await import('./evaluation-load.bench')).runParallelEvaluationsBench(),
  },
  limits: {
    title:
      'Hostile uploads and imports on the production server (issue 43): each answer, GET /api/health p50/p99/max ' +
      'while it is sent (goal p99 < 100 ms) and the server peak RSS',
    run: async () => (await import('./upload-limits.bench')).runUploadLimitsBench(),
  },
  footprint: {
    title:
      'Server footprint (issue 47): RSS idle after the first start and a later one, start to the first published ' +
      'answer, RSS 5 s and 60 s after a 50-connection burst (MB; goals: idle <= 250 embedded, <= 200 PostgreSQL)',
    run: async () => (await import('./footprint.bench')).runFootprintBench(),
  },
  'run-stats': {
    title: 'Run analytics on PostgreSQL over 100,000 runs: GET /api/workflows/:id/stats and GET /api/runs (median ms)',
    run: async () => (await import('./run-stats.bench')).runRunStatsBench(),
  },
};

async function main() {
  const only = (process.argv[2] ?? process.env.BENCH_ONLY ?? Object.keys(SUITES).join(','))
    .split(',')
    .map((s) => s.trim());
  for (const name of only) {
    const suite = SUITES[name];
    if (!suite) throw new Error(`unknown benchmark "${name}"; choose from ${Object.keys(SUITES).join(', ')}`);
    console.log(`\n== ${suite.title} ==`);
    console.table(await suite.run());
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
