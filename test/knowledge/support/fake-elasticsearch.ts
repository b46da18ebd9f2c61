/**
 * A fake Elasticsearch behind @elastic/elasticsearch-mock, so the real client and the real ElasticsearchKnowledgeStore
 * can run the KnowledgeStore conformance suite here (no ES server can run on these machines). It records every
 * request (method, path, querystring, body) for exact-shape assertions, and evaluates exactly the subset of the
 * Query DSL the store sends, following the documented semantics:
 *   term / terms / bool(must, filter) / match (BM25, k1 1.2, b 0.75, Lucene idf) / knn query and top-level knn
 *   (cosine score (1 + cos) / 2, filter applied before ranking) / rescore (total = query_weight · score +
 *   rescore_query_weight · rescore score, non-matching docs keep query_weight · score) / rrf retriever /
 *   include_named_queries_score / _source filtering; index create with a strict mapping, get mapping, delete,
 *   _bulk (dims checked like a strict dense_vector mapping), _delete_by_query, _count.
 * `GET /` reports a version (9.1.0 by default). Like a real cluster it knows a licence (`basic` by default, as a
 * self-managed cluster starts): `GET /_license` answers it, and the `rrf` retriever is refused with ES's 403
 * security_exception unless the licence is an active enterprise or trial one. `_msearch` runs each search; size, k and
 * num_candidates past 10,000 (or k > num_candidates) are refused with a 400 as ES does.
 * Text is analysed like the default (`cjk`) `paiflow_text` analyzer: the embedded store's analysis with CJK bigrams.
 * It is a test double: real Elasticsearch runs the same suite when ELASTICSEARCH_URL is set.
 */
import { createRequire } from 'node:module';
import Mock from '@elastic/elasticsearch-mock';
import { analyzeWithCjkBigrams as analyze } from '@/engine/knowledge/analyzer';

// The mock recognises error responses with instanceof against the CJS build of the client; use that build's class.
const cjs = createRequire(import.meta.url)('@elastic/elasticsearch') as typeof import('@elastic/elasticsearch');

export interface RecordedRequest {
  method: string;
  path: string;
  querystring: Record<string, string>;
  body: any;
}

interface Doc {
  _id: string;
  source: Record<string, any>;
  terms: Map<string, Map<string, number>>; // field → term → tf
  lengths: Map<string, number>;
}

interface Index {
  settings: any;
  mappings: any;
  docs: Map<string, Doc>;
}

function error(status: number, type: string, reason: string, extra: Record<string, string> = {}) {
  return new cjs.errors.ResponseError({
    body: { error: { type, reason, ...extra, root_cause: [{ type, reason, ...extra }] }, status },
    statusCode: status,
    headers: {},
    warnings: null,
    meta: {} as any,
  } as any);
}

const TEXT_FIELDS = ['title', 'text', 'search_text'];
const MAX = 10_000;

export interface FakeElasticsearchOptions {
  /** The licence type `GET /_license` reports; default `basic` (a fresh self-managed cluster). */
  licence?: 'basic' | 'gold' | 'platinum' | 'enterprise' | 'trial';
  /** The licence status; default `active`. */
  licenceStatus?: 'active' | 'expired';
  /** The version `GET /` reports; default 9.1.0. */
  version?: string;
  /** As an API key without the `monitor` cluster privilege: `GET /` and `GET /_license` answer 403. */
  noMonitor?: boolean;
}

/** ES's 403 when a licence lacks a feature (LicenseUtils.newComplianceException). */
const RRF_FEATURE = 'Reciprocal Rank Fusion (RRF)';
const licenceError = () =>
  error(403, 'security_exception', `current license is non-compliant for [${RRF_FEATURE}]`, {
    'license.expired.feature': RRF_FEATURE,
  });

export class FakeElasticsearch {
  readonly mock = new Mock();
  readonly requests: RecordedRequest[] = [];
  readonly indices = new Map<string, Index>();
  /** Mutable, so a test can downgrade or expire the licence between requests. */
  licence: Required<Pick<FakeElasticsearchOptions, 'licence' | 'licenceStatus'>>;
  readonly version: string;
  private readonly noMonitor: boolean;

  constructor(opts: FakeElasticsearchOptions = {}) {
    this.licence = { licence: opts.licence ?? 'basic', licenceStatus: opts.licenceStatus ?? 'active' };
    this.version = opts.version ?? '9.1.0';
    this.noMonitor = opts.noMonitor ?? false;
    const unauthorized = (action: string) =>
      error(403, 'security_exception', `action [${action}] is unauthorized for API key id [fake] of user [fake]`);
    const rec = (p: any) =>
      this.requests.push({ method: p.method, path: p.path, querystring: { ...p.querystring }, body: p.body });
    const handle = (fn: (p: any) => any) => (p: any) => {
      rec(p);
      return fn(p);
    };
    const m = this.mock;
    m.add(
      { method: 'GET', path: '/' },
      handle(() =>
        this.noMonitor
          ? unauthorized('cluster:monitor/main')
          : {
              name: 'fake',
              cluster_name: 'fake',
              version: { number: this.version, build_flavor: 'default', lucene_version: '10.0.0' },
              tagline: 'You Know, for Search',
            },
      ),
    );
    m.add(
      { method: 'GET', path: '/_license' },
      handle(() =>
        this.noMonitor
          ? unauthorized('cluster:monitor/xpack/license/get')
          : {
              license: {
                status: this.licence.licenceStatus,
                uid: 'fake',
                type: this.licence.licence,
                issued_to: 'fake',
              },
            },
      ),
    );
    m.add(
      { method: ['GET', 'POST'], path: '/_msearch' },
      handle((p) => {
        const lines: any[] = p.body;
        const responses: any[] = [];
        for (let i = 0; i < lines.length; i += 2) {
          const name = lines[i].index;
          const idx = this.indices.get(name);
          const r = idx ? this.search(idx, lines[i + 1], {}) : error(404, 'index_not_found_exception', 'no such index');
          responses.push(
            r instanceof Error ? { ...(r as any).body, status: (r as any).statusCode } : { ...r, status: 200 },
          );
        }
        return { took: 1, responses };
      }),
    );
    m.add(
      { method: 'HEAD', path: '/:index' },
      handle((p) => (this.indices.has(this.name(p)) ? '' : error(404, 'index_not_found_exception', 'no such index'))),
    );
    m.add(
      { method: 'PUT', path: '/:index' },
      handle((p) => this.create(this.name(p), p.body)),
    );
    m.add(
      { method: 'GET', path: '/:index/_mapping' },
      handle((p) => {
        const idx = this.indices.get(this.name(p));
        return idx
          ? { [this.name(p)]: { mappings: idx.mappings } }
          : error(404, 'index_not_found_exception', 'no such index');
      }),
    );
    m.add(
      { method: 'DELETE', path: '/:index' },
      handle((p) => {
        const name = this.name(p);
        if (!this.indices.delete(name) && p.querystring.ignore_unavailable !== 'true')
          return error(404, 'index_not_found_exception', 'no such index');
        return { acknowledged: true };
      }),
    );
    m.add(
      { method: 'POST', path: '/_bulk' },
      handle((p) => this.bulk(p.body)),
    );
    m.add(
      { method: 'POST', path: '/:index/_delete_by_query' },
      handle((p) =>
        this.withIndex(p, (idx) => {
          const hits = [...idx.docs.values()].filter((d) => this.matches(idx, d, p.body.query));
          for (const d of hits) idx.docs.delete(d._id);
          return { deleted: hits.length, total: hits.length, failures: [] };
        }),
      ),
    );
    m.add(
      { method: 'POST', path: '/:index/_count' },
      handle((p) =>
        this.withIndex(p, (idx) => ({
          count: [...idx.docs.values()].filter((d) => this.matches(idx, d, p.body?.query)).length,
        })),
      ),
    );
    m.add(
      { method: 'POST', path: '/:index/_search' },
      handle((p) => this.withIndex(p, (idx) => this.search(idx, p.body, p.querystring))),
    );
  }

  connection() {
    return this.mock.getConnection();
  }

  private name(p: any): string {
    return decodeURIComponent(p.path.split('/')[1]);
  }

  private withIndex(p: any, fn: (idx: Index) => any) {
    const idx = this.indices.get(this.name(p));
    return idx ? fn(idx) : error(404, 'index_not_found_exception', `no such index [${this.name(p)}]`);
  }

  private create(name: string, body: any) {
    if (this.indices.has(name))
      return error(400, 'resource_already_exists_exception', `index [${name}] already exists`);
    this.indices.set(name, { settings: body?.settings ?? {}, mappings: body?.mappings ?? {}, docs: new Map() });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  private bulk(lines: any[]) {
    const items: any[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i += 2) {
      const action = lines[i].index;
      const src = lines[i + 1];
      const idx = this.indices.get(action._index);
      const fail = (type: string, reason: string, status = 400) => {
        errors = true;
        items.push({ index: { _index: action._index, _id: action._id, status, error: { type, reason } } });
      };
      if (!idx) {
        fail('index_not_found_exception', 'no such index', 404);
        continue;
      }
      const props = idx.mappings.properties ?? {};
      const unknown = Object.keys(src).find((k) => !props[k]);
      if (unknown && idx.mappings.dynamic === 'strict') {
        fail(
          'strict_dynamic_mapping_exception',
          `mapping set to strict, dynamic introduction of [${unknown}] is not allowed`,
        );
        continue;
      }
      const dims = props.embedding?.dims;
      if (dims !== undefined && (!Array.isArray(src.embedding) || src.embedding.length !== dims)) {
        fail(
          'document_parsing_exception',
          'The [dense_vector] field [embedding] in doc has a different number of ' +
            `dimensions [${src.embedding?.length}] than defined in the mapping [${dims}]`,
        );
        continue;
      }
      const terms = new Map<string, Map<string, number>>();
      const lengths = new Map<string, number>();
      const fieldText: Record<string, string[]> = {};
      for (const f of TEXT_FIELDS) if (typeof src[f] === 'string') (fieldText[f] ??= []).push(src[f]);
      for (const f of ['title', 'text'])
        if (typeof src[f] === 'string' && props[f]?.copy_to)
          for (const t of [props[f].copy_to].flat()) (fieldText[t] ??= []).push(src[f]);
      for (const [f, texts] of Object.entries(fieldText)) {
        const toks = texts.flatMap((t) => analyze(t));
        const tf = new Map<string, number>();
        for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
        terms.set(f, tf);
        lengths.set(f, toks.length);
      }
      const existed = idx.docs.has(action._id);
      idx.docs.set(action._id, { _id: action._id, source: src, terms, lengths });
      items.push({
        index: {
          _index: action._index,
          _id: action._id,
          status: existed ? 200 : 201,
          result: existed ? 'updated' : 'created',
        },
      });
    }
    return { took: 1, errors, items };
  }

  // ── query evaluation ─────────────────────────────────────────────────────────────────────────────────────────

  private matches(idx: Index, d: Doc, q: any): boolean {
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
      return all.every((c) => this.matches(idx, d, c));
    }
    if (q.match) return this.bm25(idx, d, q.match) > 0;
    throw new Error(`fake ES: unsupported query ${JSON.stringify(q).slice(0, 100)}`);
  }

  private bm25(idx: Index, d: Doc, match: any): number {
    const [field, spec] = Object.entries(match)[0] as [string, any];
    const text = typeof spec === 'string' ? spec : spec.query;
    const qtf = new Map<string, number>();
    for (const t of analyze(text)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
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

  private cos(a: number[], b: number[]): number {
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
  private knn(idx: Index, k: any): Array<{ d: Doc; score: number }> {
    const filter = [k.filter ?? []].flat();
    const cands = [...idx.docs.values()].filter((d) => filter.every((f) => this.matches(idx, d, f)));
    const scored = cands.map((d) => ({ d, score: (1 + this.cos(k.query_vector, d.source.embedding)) / 2 }));
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, Math.min(k.k ?? k.num_candidates ?? 10, k.num_candidates ?? Infinity));
  }

  /** Scored docs of a query, best first (unmatched docs omitted). */
  private run(idx: Index, q: any): Array<{ d: Doc; score: number; named: Record<string, number> }> {
    if (q.knn) return this.knn(idx, q.knn).map((h) => ({ ...h, named: q.knn._name ? { [q.knn._name]: h.score } : {} }));
    if (q.bool) {
      const musts = [q.bool.must ?? []].flat();
      const filters = [q.bool.filter ?? []].flat();
      const out: Array<{ d: Doc; score: number; named: Record<string, number> }> = [];
      for (const d of idx.docs.values()) {
        if (!filters.every((f) => this.matches(idx, d, f))) continue;
        let score = 0;
        const named: Record<string, number> = {};
        let ok = true;
        for (const m of musts) {
          if (!m.match) throw new Error('fake ES: bool.must supports match only');
          const s = this.bm25(idx, d, m.match);
          if (s <= 0) {
            ok = false;
            break;
          }
          score += s;
          const spec = Object.values(m.match)[0] as any;
          if (spec?._name) named[spec._name] = s;
        }
        if (ok) out.push({ d, score, named });
      }
      return out.sort((a, b) => b.score - a.score);
    }
    throw new Error(`fake ES: unsupported top-level query ${JSON.stringify(q).slice(0, 100)}`);
  }

  /** The 10,000 limits ES enforces on the windows we send (index.max_result_window and the kNN ceilings). */
  private limitError(body: any) {
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

  private search(idx: Index, body: any, qs: Record<string, string>) {
    const size = body.size ?? 10;
    const limit = this.limitError(body);
    if (limit) return limit;
    let results: Array<{ d: Doc; score: number; named: Record<string, number> }>;
    if (body.retriever?.rrf) {
      const { licence, licenceStatus } = this.licence;
      if (!['enterprise', 'trial'].includes(licence) || licenceStatus !== 'active') return licenceError();
      const r = body.retriever.rrf;
      const window = r.rank_window_size ?? size;
      const k = r.rank_constant ?? 60;
      const fused = new Map<string, { d: Doc; score: number; named: Record<string, number> }>();
      for (const ret of r.retrievers) {
        const list = ret.standard
          ? this.run(idx, ret.standard.query)
          : this.knn(idx, ret.knn).map((h) => ({ ...h, named: {} }));
        list.slice(0, window).forEach((h, rank) => {
          const cur = fused.get(h.d._id) ?? { d: h.d, score: 0, named: {} };
          cur.score += 1 / (k + rank + 1);
          Object.assign(cur.named, h.named);
          fused.set(h.d._id, cur);
        });
      }
      results = [...fused.values()].sort((a, b) => b.score - a.score);
    } else if (body.knn) {
      results = this.knn(idx, body.knn).map((h) => ({ ...h, named: {} }));
    } else {
      results = this.run(idx, body.query ?? { match_all: {} });
    }
    if (body.rescore) {
      const rs = [body.rescore].flat()[0];
      const window = rs.window_size ?? 10;
      const qw = rs.query.query_weight ?? 1;
      const rw = rs.query.rescore_query_weight ?? 1;
      const head = results.slice(0, window).map((h) => {
        const match = rs.query.rescore_query.match;
        const s = this.bm25(idx, h.d, match);
        const name = (Object.values(match)[0] as any)?._name;
        // Named rescore queries are reported like the main query's (ES ≥ 8.8, elastic/elasticsearch#94562).
        const named = s > 0 && name ? { ...h.named, [name]: s } : h.named;
        return { ...h, named, score: s > 0 ? qw * h.score + rw * s : qw * h.score };
      });
      head.sort((a, b) => b.score - a.score);
      results = [...head, ...results.slice(window)];
    }
    const pick = (src: any) =>
      Array.isArray(body._source)
        ? Object.fromEntries(body._source.filter((f: string) => f in src).map((f: string) => [f, src[f]]))
        : src;
    return {
      took: 1,
      timed_out: false,
      hits: {
        max_score: results[0]?.score ?? null,
        hits: results.slice(0, size).map((h) => ({
          _index: 'x',
          _id: h.d._id,
          _score: h.score,
          _source: pick(h.d.source),
          ...(Object.keys(h.named).length
            ? { matched_queries: qs.include_named_queries_score === 'true' ? h.named : Object.keys(h.named) }
            : {}),
        })),
      },
    };
  }
}
