/**
 * The fake Elasticsearch's index model and query evaluation (fake-elasticsearch.ts holds the routes): documents with
 * their analysed terms, the analyzers (paiflow_text with CJK bigrams; search_text.unigram with CJK characters), ES's
 * error bodies, dynamic mapping, and the subset of the Query DSL the store sends with its documented semantics —
 * term / terms / bool / match and multi_match (most_fields, `field^boost`; BM25 with k1 1.2, b 0.75, Lucene idf) /
 * knn (cosine (1 + cos) / 2, filter before ranking) and the 10,000 window limits.
 */
import { createRequire } from 'node:module';
import { analyzeWithCjkBigrams } from '@/engine/knowledge/analyzer';

// The mock recognises error responses with instanceof against the CJS build of the client; use that build's class.
const cjs = createRequire(import.meta.url)('@elastic/elasticsearch') as typeof import('@elastic/elasticsearch');

export interface Doc {
  _id: string;
  source: Record<string, any>;
  terms: Map<string, Map<string, number>>; // field → term → tf
  lengths: Map<string, number>;
}

export interface Index {
  settings: any;
  mappings: any;
  docs: Map<string, Doc>;
  aliases: Set<string>;
}

export const UNIGRAM = 'search_text.unigram';
/** paiflow_cjk_unigram: standard tokenizer + cjk_width + lowercase + keep_types on the CJK token types. */
const unigrams = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/\p{Script=Han}|\p{Script=Hiragana}|[\p{Script=Katakana}ー]+|\p{Script=Hangul}+/gu) ?? [];
export const analyzerFor = (field: string) => (field === UNIGRAM ? unigrams : analyzeWithCjkBigrams);

export function error(status: number, type: string, reason: string, extra: Record<string, string> = {}) {
  return new cjs.errors.ResponseError({
    body: { error: { type, reason, ...extra, root_cause: [{ type, reason, ...extra }] }, status },
    statusCode: status,
    headers: {},
    warnings: null,
    meta: {} as any,
  } as any);
}

export const MAX = 10_000;

export function matches(idx: Index, d: Doc, q: any): boolean {
  if (!q || q.match_all) return true;
  if (q.term) {
    const [f, v] = Object.entries(q.term)[0] as [string, any];
    return d.source[f] === (v && typeof v === 'object' ? v.value : v);
  }
  if (q.terms) {
    const [f, vs] = Object.entries(q.terms)[0] as [string, any[]];
    return vs.includes(d.source[f]);
  }
  if (q.bool) {
    const all = [...[q.bool.must ?? []].flat(), ...[q.bool.filter ?? []].flat()];
    const none = [q.bool.must_not ?? []].flat();
    return all.every((c) => matches(idx, d, c)) && !none.some((c) => matches(idx, d, c));
  }
  if (q.match || q.multi_match) return textScore(idx, d, q) > 0;
  throw new Error(`fake ES: unsupported query ${JSON.stringify(q).slice(0, 100)}`);
}

/** The score of a match or multi_match (most_fields: the sum over the fields of boost × BM25). */
export function textScore(idx: Index, d: Doc, q: any): number {
  if (q.match) {
    const [field, spec] = Object.entries(q.match)[0] as [string, any];
    return bm25(idx, d, field, typeof spec === 'string' ? spec : spec.query);
  }
  const mm = q.multi_match;
  if (mm.type && mm.type !== 'most_fields') throw new Error(`fake ES: multi_match type ${mm.type}`);
  return (mm.fields as string[]).reduce((sum, f) => {
    const [field, boost] = f.split('^');
    return sum + Number(boost ?? 1) * bm25(idx, d, field, mm.query);
  }, 0);
}

/** The `_name` of a match or multi_match. */
export function nameOf(q: any): string | undefined {
  return q.multi_match ? q.multi_match._name : (Object.values(q.match)[0] as any)?._name;
}

export function bm25(idx: Index, d: Doc, field: string, text: string): number {
  const qtf = new Map<string, number>();
  for (const t of analyzerFor(field)(text)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const docs = [...idx.docs.values()];
  const N = docs.length;
  const avgdl = docs.reduce((n, x) => n + (x.lengths.get(field) ?? 0), 0) / Math.max(1, N);
  const dl = d.lengths.get(field) ?? 0;
  let score = 0;
  for (const [t, qn] of qtf) {
    const tf = d.terms.get(field)?.get(t) ?? 0;
    if (!tf) continue;
    const df = docs.filter((x) => x.terms.get(field)?.has(t)).length;
    const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
    score += (qn * idf * tf) / (tf + 1.2 * (1 - 0.75 + (0.75 * dl) / avgdl));
  }
  return score;
}

export function cos(a: number[], b: number[]): number {
  let dot = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Scored docs of a (top-level or query) knn clause, best first. */
export function knn(idx: Index, k: any): Array<{ d: Doc; score: number }> {
  const filter = [k.filter ?? []].flat();
  // A document without a vector is never a kNN hit (Elasticsearch searches the field's HNSW graph only).
  const cands = [...idx.docs.values()].filter(
    (d) => Array.isArray(d.source.embedding) && filter.every((f) => matches(idx, d, f)),
  );
  const scored = cands.map((d) => ({ d, score: (1 + cos(k.query_vector, d.source.embedding)) / 2 }));
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, Math.min(k.k ?? k.num_candidates ?? 10, k.num_candidates ?? Infinity));
}

/** Scored docs of a query, best first (unmatched docs omitted). */
export function run(idx: Index, q: any): Array<{ d: Doc; score: number; named: Record<string, number> }> {
  if (q.knn) return knn(idx, q.knn).map((h) => ({ ...h, named: q.knn._name ? { [q.knn._name]: h.score } : {} }));
  if (q.bool) {
    const musts = [q.bool.must ?? []].flat();
    const filters = [q.bool.filter ?? []].flat();
    const out: Array<{ d: Doc; score: number; named: Record<string, number> }> = [];
    for (const d of idx.docs.values()) {
      if (!filters.every((f) => matches(idx, d, f))) continue;
      let score = 0;
      const named: Record<string, number> = {};
      let ok = true;
      for (const m of musts) {
        if (!m.match && !m.multi_match) throw new Error('fake ES: bool.must supports match and multi_match only');
        const s = textScore(idx, d, m);
        if (s <= 0) {
          ok = false;
          break;
        }
        score += s;
        const name = nameOf(m);
        if (name) named[name] = s;
      }
      if (ok) out.push({ d, score, named });
    }
    return out.sort((a, b) => b.score - a.score);
  }
  throw new Error(`fake ES: unsupported top-level query ${JSON.stringify(q).slice(0, 100)}`);
}

/** The 10,000 limits ES enforces on the windows we send (index.max_result_window and the kNN ceilings). */
export function limitError(body: any) {
  const size = body.size ?? 10;
  if (size > MAX)
    return error(400, 'illegal_argument_exception', `Result window is too large, from + size must be <= ${MAX}`);
  const knns = [body.knn, body.query?.knn, ...(body.retriever?.rrf?.retrievers ?? []).map((r: any) => r.knn)];
  for (const k of knns.filter(Boolean)) {
    if (k.num_candidates > MAX)
      return error(400, 'illegal_argument_exception', `[num_candidates] cannot exceed [${MAX}]`);
    if (k.k > k.num_candidates)
      return error(400, 'illegal_argument_exception', '[num_candidates] cannot be less than [k]');
  }
  if ((body.retriever?.rrf?.rank_window_size ?? 0) > MAX)
    return error(400, 'illegal_argument_exception', `[rank_window_size] cannot exceed [${MAX}]`);
  return null;
}

/** ES's dynamic mapping of a document's top-level fields (strings as text + keyword, numbers float or long). */
export function dynamicMapping(src: Record<string, unknown>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string')
      props[k] = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
    else if (typeof first === 'number') props[k] = { type: Number.isInteger(first) ? 'long' : 'float' };
    else if (typeof first === 'boolean') props[k] = { type: 'boolean' };
  }
  return props;
}
