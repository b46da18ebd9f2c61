/**
 * Retrieval quality and speed on real documents (issue 46): `npm run bench -- retrieval`.
 *
 * For each corpus of bench/retrieval/corpora (a Chinese framework guide and an English library's docs, real public
 * Markdown; sections.ts says how they become documents and queries), a fresh knowledge base on the embedded store and
 * the embedded database, with the offline embedder, is filled THROUGH THE REAL INDEXING PATH (service uploads →
 * worker-thread parsing and chunking → embedding → index), timed from the first upload until every document is
 * indexed. Then every query is searched through the service (query embedding included) in each mode and setting;
 * hit@1, hit@5, MRR and nDCG@10 are computed over documents (metrics.ts), with p50/p95 search latency.
 *
 * `BENCH_RETRIEVAL_CORPORA` (default both), `BENCH_RETRIEVAL_TOPK` (chunks asked for, default 20),
 * `BENCH_RETRIEVAL_MD=<file>` also writes the table as Markdown; `BENCH_RETRIEVAL_SPEED_ONLY=1` measures indexing
 * speed alone (no quality pass).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedKnowledgeStore } from '../engine/knowledge/embedded-store';
import { createEmbedderResolver, type EmbedderResolver } from '../engine/knowledge/embedders/resolve-embedder';
import { KnowledgeBaseService } from '../engine/knowledge/service';
import type { Embedder, FusionOptions, KnowledgeStore, SearchMode, StoreQuery } from '../engine/knowledge/types';
import { openStores } from '../engine/store/app/open-stores';
import { documentRanking, mean, percentile, scoreRanking, type Scores } from './retrieval/metrics';
import { loadCorpus, type Corpus, type LabelledQuery } from './retrieval/sections';

const CORPORA: Array<{ name: string; language: Corpus['language'] }> = [
  { name: 'egg-zh-cn', language: 'zh-CN' },
  { name: 'fastify-en', language: 'en' },
];

/** A mode and the store settings it is searched with. */
export interface RetrievalSetting {
  label: string;
  mode: SearchMode;
  fusion?: Partial<FusionOptions>;
}

export const SETTINGS: RetrievalSetting[] = [
  { label: 'keyword (BM25)', mode: 'bm25' },
  { label: 'vector', mode: 'vector' },
  { label: 'hybrid (default)', mode: 'hybrid' },
  { label: 'hybrid, rescore 0.2/1.0', mode: 'hybrid', fusion: { method: 'rescore' } },
  { label: 'hybrid, rrf', mode: 'hybrid', fusion: { method: 'rrf' } },
  { label: 'hybrid, weighted 0.2', mode: 'hybrid', fusion: { method: 'weighted', vectorWeight: 0.2 } },
  { label: 'hybrid, weighted 0.5', mode: 'hybrid', fusion: { method: 'weighted', vectorWeight: 0.5 } },
];

/** `BENCH_RETRIEVAL_SETTINGS=<label>,<label>`: only these (e.g. the ones an older build knows). */
function chosenSettings(): RetrievalSetting[] {
  const only = process.env.BENCH_RETRIEVAL_SETTINGS?.split(',').map((x) => x.trim());
  return only ? SETTINGS.filter((s) => only.includes(s.label)) : SETTINGS;
}

export interface RetrievalRow {
  corpus: string;
  queries: string;
  setting: string;
  'hit@1': string;
  'hit@5': string;
  MRR: string;
  'nDCG@10': string;
  'p50 ms': string;
  'p95 ms': string;
}

/** The store the service is given, with the fusion of the setting being measured put into every search. */
function withFusion(store: KnowledgeStore, current: { fusion?: Partial<FusionOptions> }): KnowledgeStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'search')
        return (q: StoreQuery) => target.search({ ...q, fusion: { ...q.fusion, ...current.fusion } });
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * The embedders, with a memory of vectors by text while `cache.on`: the quality figures do not depend on how long a
 * vector took, and each query is searched in every setting. `BENCH_RETRIEVAL_CACHE=<file>` keeps that memory between
 * runs (JSON, sha1 of the text → vector), so a rerun on a busy machine does not embed the corpora again. Indexing
 * speed and search latency are measured with the cache off.
 */
function cachingEmbedders(inner: EmbedderResolver, cache: { on: boolean; vectors: Map<string, Float32Array> }) {
  const key = (t: string) => createHash('sha1').update(t).digest('hex');
  return (model: string): Embedder => {
    const e = inner(model);
    return new Proxy(e, {
      get(target, prop, receiver) {
        if (prop === 'embed')
          return async (texts: string[], opts?: { signal?: AbortSignal }) => {
            if (!cache.on) return target.embed(texts, opts);
            const missing = [...new Set(texts.filter((t) => !cache.vectors.has(key(t))))];
            if (missing.length) {
              const got = await target.embed(missing, opts);
              missing.forEach((t, i) => cache.vectors.set(key(t), got[i]));
            }
            return texts.map((t) => cache.vectors.get(key(t))!);
          };
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Embedder;
  };
}

function loadCache(file: string | undefined): Map<string, Float32Array> {
  const m = new Map<string, Float32Array>();
  if (file && existsSync(file))
    for (const [k, v] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>))
      m.set(k, Float32Array.from(v));
  return m;
}

function saveCache(file: string | undefined, m: Map<string, Float32Array>) {
  if (!file) return;
  const out: Record<string, number[]> = {};
  for (const [k, v] of m) out[k] = Array.from(v, (x) => Math.round(x * 1e5) / 1e5);
  writeFileSync(file, JSON.stringify(out));
}

const f3 = (x: number) => x.toFixed(3);
const LATENCY_QUERIES = Number(process.env.BENCH_RETRIEVAL_LATENCY_QUERIES ?? 100);

export async function runRetrievalBench(): Promise<RetrievalRow[]> {
  const only = (process.env.BENCH_RETRIEVAL_CORPORA ?? CORPORA.map((c) => c.name).join(',')).split(',');
  const topK = Number(process.env.BENCH_RETRIEVAL_TOPK ?? 20);
  const rows: RetrievalRow[] = [];
  const notes: string[] = [];
  const cacheFile = process.env.BENCH_RETRIEVAL_CACHE;
  const cacheVectors = loadCache(cacheFile);
  const throughputDocs = Number(process.env.BENCH_RETRIEVAL_THROUGHPUT_DOCS ?? 100);
  // Each row as soon as it is measured: a corpus that fails later (a busy machine's EMBEDDING_TIMEOUT) loses none.
  const log = (row: RetrievalRow) => {
    rows.push(row);
    console.log(`  ${Object.values(row).join(' | ')}`);
  };
  for (const { name, language } of CORPORA.filter((c) => only.includes(c.name))) {
    const corpus = loadCorpus(path.join(__dirname, 'retrieval', 'corpora'), name, language);
    const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-retrieval-'));
    const stores = await openStores({ dataDir: path.join(dir, 'db') });
    const current: { fusion?: Partial<FusionOptions> } = {};
    const cache = { on: false, vectors: cacheVectors };
    const store = new EmbeddedKnowledgeStore({ dir: path.join(dir, 'knowledge') });
    const service = new KnowledgeBaseService({
      catalog: stores.knowledgeCatalog,
      store: withFusion(store, current),
      embedders: cachingEmbedders(createEmbedderResolver({}), cache),
      defaultEmbeddingModel: 'use-lite',
    });
    try {
      // Indexing speed: the first documents, as a client uploads them (20 files per request, one request after
      // another), timed until every one is indexed, embeddings computed for real.
      const upload = async (kbId: string, sections: typeof corpus.documents) => {
        const ids = new Map<string, string>();
        for (let i = 0; i < sections.length; i += 20) {
          const part = sections.slice(i, i + 20);
          const docs = await service.addDocuments(
            kbId,
            part.map((s) => ({ title: s.title!, text: s.body, mime: 'text/markdown' })),
          );
          docs.forEach((d, j) => ids.set(part[j].id, d.id));
        }
        await service.whenIdle();
        const docs = await service.listDocuments(kbId);
        const failed = docs.filter((d) => d.status !== 'indexed');
        if (failed.length)
          throw new Error(`${failed.length} documents of ${name} did not index: ${failed[0].error?.code}`);
        return { ids, docs };
      };
      const speedKb = await service.createKnowledgeBase({ name: `${name} (indexing speed)` });
      const sample = corpus.documents.slice(0, throughputDocs);
      const t0 = performance.now();
      const { docs: sampleDocs } = await upload(speedKb.id, sample);
      const secs = (performance.now() - t0) / 1000;
      const waits = sampleDocs
        .map((d) => Date.parse(d.indexedAt!) - Date.parse(d.createdAt))
        .sort((a, b) => a - b)
        .map((ms) => ms / 1000);
      const sampleChunks = sampleDocs.reduce((a, d) => a + d.chunkCount, 0);
      await service.deleteKnowledgeBase(speedKb.id);
      const speed =
        `Indexing ${sample.length} sections (${sampleChunks} chunks) took ${secs.toFixed(1)} s = ` +
        `${(sample.length / secs).toFixed(2)} documents/s; upload → indexed median ` +
        `${percentile(waits, 50).toFixed(1)} s, p90 ${percentile(waits, 90).toFixed(1)} s`;
      if (process.env.BENCH_RETRIEVAL_SPEED_ONLY) {
        notes.push(`${name}: ${speed}`);
        console.log(`  ${notes[notes.length - 1]}`);
        continue;
      }

      // Quality: every section, vectors from the cache where it has them.
      cache.on = true;
      const kb = await service.createKnowledgeBase({ name });
      const { ids: idOf, docs } = await upload(kb.id, corpus.documents);
      saveCache(cacheFile, cacheVectors);
      const chunks = docs.reduce((a, d) => a + d.chunkCount, 0);
      notes.push(
        `${name}: ${corpus.documents.length} sections (${chunks} chunks, ${(corpus.bytes / 1024).toFixed(0)} KB of ` +
          `Markdown), ${corpus.queries.length} queries. ${speed}`,
      );
      console.log(`  ${notes[notes.length - 1]}`);

      for (const setting of chosenSettings()) {
        current.fusion = setting.fusion;
        const byKind = new Map<string, Scores[]>();
        const times: number[] = [];
        const run = async (q: LabelledQuery) => {
          const s = performance.now();
          const res = await service.search(kb.id, { query: q.query, topK, mode: setting.mode });
          times.push(performance.now() - s);
          const relevant = new Set(q.relevant.map((id) => idOf.get(id)!));
          return scoreRanking(documentRanking(res.hits), relevant);
        };
        // Latency: the first queries as a client sends them (query embedding included), after a warm-up.
        cache.on = false;
        for (const q of corpus.queries.slice(0, 5)) await run(q);
        times.length = 0;
        for (const q of corpus.queries.slice(0, LATENCY_QUERIES)) await run(q);
        const latency = [...times];
        cache.on = true;
        for (const q of corpus.queries) {
          const sc = await run(q);
          byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), sc]);
        }
        times.length = 0;
        times.push(...latency);
        times.sort((a, b) => a - b);
        for (const [kind, all] of byKind) {
          const m = mean(all);
          log({
            corpus: name,
            queries: `${kind} (${all.length})`,
            setting: setting.label,
            'hit@1': f3(m.hitAt1),
            'hit@5': f3(m.hitAt5),
            MRR: f3(m.mrr),
            'nDCG@10': f3(m.ndcgAt10),
            'p50 ms': percentile(times, 50).toFixed(1),
            'p95 ms': percentile(times, 95).toFixed(1),
          });
        }
      }
      saveCache(cacheFile, cacheVectors);
    } finally {
      await service.close();
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (process.env.BENCH_RETRIEVAL_MD) {
    const cols = Object.keys(rows[0] ?? {}) as Array<keyof RetrievalRow>;
    const md = [
      `| ${cols.join(' | ')} |`,
      `|${cols.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${cols.map((c) => r[c]).join(' | ')} |`),
      '',
      ...notes.map((n) => `- ${n}`),
    ].join('\n');
    writeFileSync(process.env.BENCH_RETRIEVAL_MD, `${md}\n`);
  }
  return rows;
}
