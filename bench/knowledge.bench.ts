/**
 * Knowledge bench: the embedded hybrid index at 10k and 100k chunks — indexing throughput (chunks/s, persisted with
 * fsync per batch), reload time, and query latency p50/p99 for bm25, vector and hybrid (rescore, rrf).
 *
 * The indexes are filled with PRECOMPUTED vectors (structured: 64 random unit "topic" centroids in 512-d plus noise)
 * and synthetic text (Zipf-distributed vocabulary, ~450 characters per chunk), because embedding 100k chunks with the
 * offline model would take hours on 2 cores. The real model's own throughput is measured separately (and is the
 * bound on end-to-end indexing speed). Query latency excludes query embedding, reported separately too.
 * Returns rows for bench/run-all.ts; `npx tsx bench/knowledge.bench.ts` runs it alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedKnowledgeStore } from '../engine/knowledge/embedded-store';
import { UseLiteEmbedder } from '../engine/knowledge/embedders/use-lite-embedder';
import { EXACT_LIMIT } from '../engine/knowledge/embedded/vector-search';
import type { ChunkRecord, FusionOptions, SearchMode } from '../engine/knowledge/types';

const DIM = 512;
const TOPICS = 64;
const VOCAB = 30_000;
const QUERIES = Number(process.env.KNOWLEDGE_BENCH_QUERIES ?? 200);

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'sa', 'do', 'fu', 'gi', 'ha', 'ju', 'be'];
function word(i: number): string {
  let s = '';
  let n = i + 1;
  while (n > 0) {
    s += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return s;
}

interface Corpus {
  words: string[];
  centroids: Float32Array[];
  zipf: (r: () => number) => number;
}

function corpus(): Corpus {
  const r = rng(7);
  const words = Array.from({ length: VOCAB }, (_, i) => word(i));
  const centroids = Array.from({ length: TOPICS }, () => unit(Float32Array.from({ length: DIM }, () => gauss(r))));
  // Zipf(s = 1) by inverse CDF over a precomputed table.
  const cdf = new Float64Array(VOCAB);
  let sum = 0;
  for (let i = 0; i < VOCAB; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < VOCAB; i++) cdf[i] /= sum;
  const zipf = (rand: () => number) => {
    const u = rand();
    let lo = 0,
      hi = VOCAB - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { words, centroids, zipf };
}

function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

function noisy(c: Float32Array, r: () => number, noise: number): Float32Array {
  const v = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) v[i] = c[i] + (noise * gauss(r)) / Math.sqrt(DIM);
  return unit(v);
}

function makeChunks(c: Corpus, n: number, seed: number): ChunkRecord[] {
  const r = rng(seed);
  const out: ChunkRecord[] = [];
  for (let i = 0; i < n; i++) {
    const topic = Math.floor(r() * TOPICS);
    const parts: string[] = [];
    let len = 0;
    while (len < 450) {
      const w = c.words[c.zipf(r)];
      parts.push(w);
      len += w.length + 1;
    }
    const text = parts.join(' ');
    const doc = Math.floor(i / 10);
    out.push({
      id: `doc${doc}:${i % 10}`,
      documentId: `doc${doc}`,
      title: `Document ${doc}`,
      chunkIndex: i % 10,
      start: 0,
      end: text.length,
      page: null,
      text,
      vector: noisy(c.centroids[topic], r, 1.2),
    });
  }
  return out;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface KnowledgeBenchRow {
  chunks: number;
  metric: string;
  value: string;
  note: string;
}

export async function runKnowledgeBench(
  sizes = (process.env.KNOWLEDGE_BENCH_SIZES ?? '10000,100000').split(',').map(Number),
): Promise<KnowledgeBenchRow[]> {
  const rows: KnowledgeBenchRow[] = [];
  const c = corpus();
  const log = (row: KnowledgeBenchRow) => {
    rows.push(row);
    if (process.env.KNOWLEDGE_BENCH_QUIET !== '1')
      console.log(
        `  ${String(row.chunks).padStart(7)}  ${row.metric.padEnd(34)} ${row.value.padStart(12)}  ${row.note}`,
      );
  };

  for (const n of sizes) {
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-kbench-'));
    try {
      const chunks = makeChunks(c, n, n);
      const store = new EmbeddedKnowledgeStore({ dir });
      await store.ensureIndex({ kbId: 'kb_bench', dimension: DIM });
      const batch = 1000;
      const t0 = performance.now();
      for (let i = 0; i < chunks.length; i += batch) await store.upsertChunks('kb_bench', chunks.slice(i, i + batch));
      const secs = (performance.now() - t0) / 1000;
      log({
        chunks: n,
        metric: 'indexing throughput (store only)',
        value: `${Math.round(n / secs)} ch/s`,
        note: `${secs.toFixed(1)} s; precomputed 512-d vectors, batches of ${batch}, fsync per batch`,
      });
      await store.close();

      const r = rng(99);
      const queries = Array.from({ length: QUERIES }, () => ({
        text: Array.from({ length: 2 + Math.floor(r() * 4) }, () => c.words[c.zipf(r) % 5000]).join(' '),
        vector: noisy(c.centroids[Math.floor(r() * TOPICS)], r, 1.2),
      }));
      // Exact top-5 by brute force for the first 50 queries (to measure the recall of the vector search).
      const truth = queries.slice(0, 50).map((q) => {
        const scored = chunks.map((ch, i) => {
          let d = 0;
          for (let j = 0; j < DIM; j++) d += q.vector[j] * (ch.vector as Float32Array)[j];
          return [d, i] as const;
        });
        scored.sort((a, b) => b[0] - a[0]);
        return new Set(scored.slice(0, 5).map(([, i]) => chunks[i].id));
      });
      chunks.length = 0;

      // Reload as after a restart: in a fresh process (this one's heap is full of the generated corpus).
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `
        const m = await import(${JSON.stringify(path.resolve(__dirname, '../engine/knowledge/embedded-store.ts'))});
        const EmbeddedKnowledgeStore = m.EmbeddedKnowledgeStore ?? m.default.EmbeddedKnowledgeStore;
        const t = performance.now();
        const s = new EmbeddedKnowledgeStore({ dir: ${JSON.stringify(dir)} });
        const n = await s.count('kb_bench');
        console.log(JSON.stringify({ ms: performance.now() - t, n, rss: process.memoryUsage().rss }));
        await s.close();`,
        ],
        { encoding: 'utf8', cwd: path.resolve(__dirname, '..') },
      );
      const reload = JSON.parse(child.stdout.trim().split('\n').pop() || '{}');
      if (reload.ms !== undefined)
        log({
          chunks: n,
          metric: 'reload from disk (fresh process)',
          value: `${(reload.ms / 1000).toFixed(2)} s`,
          note: `read files + rebuild BM25 postings; RSS ${Math.round(reload.rss / 2 ** 20)} MiB`,
        });
      else
        log({ chunks: n, metric: 'reload from disk (fresh process)', value: 'n/a', note: child.stderr.slice(0, 200) });
      const reopened = new EmbeddedKnowledgeStore({ dir });
      await reopened.count('kb_bench');

      let recall = 0;
      for (const [i, t] of truth.entries()) {
        const hits = await reopened.search({
          kbId: 'kb_bench',
          text: '',
          vector: queries[i].vector,
          topK: 5,
          mode: 'vector',
        });
        recall += hits.filter((h) => t.has(h.id)).length / 5;
      }
      log({
        chunks: n,
        metric: 'vector recall@5 vs exact scan',
        value: (recall / truth.length).toFixed(3),
        note: n > EXACT_LIMIT ? `binary-code prefilter + exact re-rank (index > ${EXACT_LIMIT} chunks)` : 'exact scan',
      });
      const modes: Array<[string, SearchMode, Partial<FusionOptions>?]> = [
        ['query bm25', 'bm25'],
        ['query vector (kNN)', 'vector'],
        ['query hybrid rescore', 'hybrid', { method: 'rescore' }],
        ['query hybrid rrf', 'hybrid', { method: 'rrf' }],
      ];
      for (const [label, mode, fusion] of modes) {
        for (const q of queries.slice(0, 10))
          await reopened.search({ kbId: 'kb_bench', text: q.text, vector: q.vector, topK: 5, mode, fusion }); // warm-up
        const times: number[] = [];
        for (const q of queries) {
          const s = performance.now();
          await reopened.search({ kbId: 'kb_bench', text: q.text, vector: q.vector, topK: 5, mode, fusion });
          times.push(performance.now() - s);
        }
        times.sort((a, b) => a - b);
        log({
          chunks: n,
          metric: `${label} p50 / p99`,
          value: `${pct(times, 50).toFixed(1)} / ${pct(times, 99).toFixed(1)} ms`,
          note: `topK 5, ${QUERIES} queries, excl. query embedding`,
        });
      }
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // The real offline model: the bound on end-to-end indexing, and the per-query embedding cost.
  const embedder = new UseLiteEmbedder();
  await embedder.embed(['warm up']);
  const refundPolicy =
    'Customers may return unused products within thirty days of delivery for a full refund, ' +
    'and refunds are issued to the original payment method. ';
  const realChunks = Array.from({ length: 48 }, (_, i) => `Section ${i}. ${refundPolicy.repeat(4)}`.slice(0, 500));
  const t2 = performance.now();
  await embedder.embed(realChunks);
  const es = (performance.now() - t2) / 1000;
  log({
    chunks: realChunks.length,
    metric: 'USE-lite embedding throughput',
    value: `${(realChunks.length / es).toFixed(1)} ch/s`,
    note: 'real model, 500-char chunks: the bound on end-to-end indexing',
  });
  const qt: number[] = [];
  for (const q of [
    'How do I get a refund?',
    'What does ERR-4521 mean?',
    'Can I bring my dog to the office?',
    'When are performance reviews?',
    'Which port does the dashboard use?',
  ]) {
    const s = performance.now();
    await embedder.embed([q]);
    qt.push(performance.now() - s);
  }
  qt.sort((a, b) => a - b);
  log({
    chunks: 0,
    metric: 'USE-lite query embedding p50',
    value: `${pct(qt, 50).toFixed(0)} ms`,
    note: 'add to hybrid/vector query latency',
  });
  return rows;
}

if (process.argv[1] && /knowledge\.bench\.ts$/.test(process.argv[1])) {
  console.log('== Knowledge: embedded hybrid index (precomputed structured vectors for the 10k/100k indexes) ==');
  runKnowledgeBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
