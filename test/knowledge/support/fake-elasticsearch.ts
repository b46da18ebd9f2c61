/**
 * A fake Elasticsearch behind @elastic/elasticsearch-mock, so the real client and the real ElasticsearchKnowledgeStore
 * can run the KnowledgeStore conformance suite here (no ES server can run on these machines). It records every
 * request (method, path, querystring, body) for exact-shape assertions, and evaluates exactly the subset of the
 * Query DSL the store sends, following the documented semantics (the query part in fake-elasticsearch-query.ts):
 *   term / terms / bool(must, filter) / match (BM25, k1 1.2, b 0.75, Lucene idf) / knn query and top-level knn
 *   (cosine score (1 + cos) / 2, filter applied before ranking) / rescore (total = query_weight · score +
 *   rescore_query_weight · rescore score, non-matching docs keep query_weight · score) / rrf retriever /
 *   include_named_queries_score / _source filtering; field sorts with search_after; index create with a strict
 *   mapping, get mapping, delete, _bulk (dims checked like a strict dense_vector mapping), _delete_by_query, _count,
 *   multi_match (most_fields, `field^boost`), aliases (given at index creation or PUT /<index>/_alias/<name>; deleted
 *   with their index).
 * `_bulk` resolves an alias to its index; into a missing index it auto-creates one with a dynamic mapping, as ES does
 * by default, unless `require_alias=true`, when each item fails with 404 index_not_found_exception (ES's reason).
 * `GET /` reports a version (9.1.0 by default); the media-type headers of every request are checked per that major
 * as ES does (fake-elasticsearch-media-types.ts), and `wire` records the headers sent. `GET /_nodes/plugins` lists
 * the `plugins` option on one node. `readOnly` answers writes with ES's 403 for a key without write privileges.
 * Like a real cluster it knows a licence (`basic` by default, as a self-managed cluster starts): `GET /_license`
 * answers it, and the `rrf` retriever is refused with ES's 403 security_exception unless the licence is an active
 * enterprise or trial one. `_msearch` runs each search; size, k and num_candidates past 10,000 (or
 * k > num_candidates) are refused with a 400 as ES does.
 * Text is analysed like the default (`cjk`) `paiflow_text` analyzer: the embedded store's analysis with CJK bigrams;
 * a `search_text.unigram` sub-field (when mapped) like paiflow_cjk_unigram: each Han/hiragana character, each
 * katakana or Hangul run, after width folding.
 * It is a test double: real Elasticsearch runs the same suite when ELASTICSEARCH_URL is set.
 */
import Mock from '@elastic/elasticsearch-mock';
import {
  analyzerFor,
  dynamicMapping,
  error,
  type Doc,
  type Index,
  knn,
  limitError,
  nameOf,
  run,
  textScore,
  matches,
  UNIGRAM,
} from './fake-elasticsearch-query';
import { checkingConnection, type WireRequest } from './fake-elasticsearch-media-types';

export interface RecordedRequest {
  method: string;
  path: string;
  querystring: Record<string, string>;
  body: any;
}

const TEXT_FIELDS = ['title', 'text', 'search_text', 'headings'];

export interface FakeElasticsearchOptions {
  /** The licence type `GET /_license` reports; default `basic` (a fresh self-managed cluster). */
  licence?: 'basic' | 'gold' | 'platinum' | 'enterprise' | 'trial';
  /** The licence status; default `active`. */
  licenceStatus?: 'active' | 'expired';
  /** The version `GET /` reports; default 9.1.0. */
  version?: string;
  /** As an API key without the `monitor` cluster privilege: `GET /` and `GET /_license` answer 403. */
  noMonitor?: boolean;
  /** The plugins `GET /_nodes/plugins` lists (one node, "fake-node-1"); default none. */
  plugins?: string[];
  /** As an API key with read privileges only: index creation, aliases, bulk and deletes answer 403. */
  readOnly?: boolean;
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
  /** Every request as it reached the wire, headers included (refused ones too). */
  readonly wire: WireRequest[] = [];
  /** alias → index. */
  readonly aliases = new Map<string, string>();
  private readonly noMonitor: boolean;
  private readonly plugins: string[];

  constructor(opts: FakeElasticsearchOptions = {}) {
    this.licence = { licence: opts.licence ?? 'basic', licenceStatus: opts.licenceStatus ?? 'active' };
    this.version = opts.version ?? '9.1.0';
    this.noMonitor = opts.noMonitor ?? false;
    this.plugins = opts.plugins ?? [];
    const unauthorized = (action: string, on = '') =>
      error(
        403,
        'security_exception',
        `action [${action}] is unauthorized for API key id [fake] of user [fake]${on ? ` on indices [${on}]` : ''}`,
      );
    const rec = (p: any) =>
      this.requests.push({ method: p.method, path: p.path, querystring: { ...p.querystring }, body: p.body });
    const handle = (fn: (p: any) => any) => (p: any) => {
      rec(p);
      return fn(p);
    };
    /** A write handler that a read-only key may not call. */
    const write = (action: string, fn: (p: any) => any) =>
      handle((p) => (opts.readOnly ? unauthorized(action, this.name(p)) : fn(p)));
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
      { method: 'GET', path: '/_nodes/plugins' },
      handle(() =>
        this.noMonitor
          ? unauthorized('cluster:monitor/nodes/info')
          : {
              _nodes: { total: 1, successful: 1, failed: 0 },
              cluster_name: 'fake',
              nodes: {
                n1: {
                  name: 'fake-node-1',
                  version: this.version,
                  plugins: this.plugins.map((name) => ({ name, version: this.version, classname: 'x' })),
                },
              },
            },
      ),
    );
    m.add(
      { method: 'PUT', path: '/:index' },
      write('indices:admin/create', (p) => this.create(this.name(p), p.body)),
    );
    m.add(
      { method: 'PUT', path: '/:index/_alias/:name' },
      write('indices:admin/aliases', (p) => {
        const idx = this.indices.get(this.name(p));
        const alias = decodeURIComponent(p.path.split('/')[3]);
        if (!idx) return error(404, 'index_not_found_exception', `no such index [${this.name(p)}]`);
        if (this.indices.has(alias))
          return error(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index exists`);
        idx.aliases.add(alias);
        this.aliases.set(alias, this.name(p));
        return { acknowledged: true };
      }),
    );
    m.add(
      { method: 'PUT', path: '/:index/_mapping' },
      write('indices:admin/mapping/put', (p) =>
        this.withIndex(p, (idx) => {
          idx.mappings.properties = { ...p.body.properties, ...idx.mappings.properties };
          return { acknowledged: true };
        }),
      ),
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
      write('indices:admin/delete', (p) => {
        const name = this.name(p);
        for (const a of this.indices.get(name)?.aliases ?? []) this.aliases.delete(a);
        if (!this.indices.delete(name) && p.querystring.ignore_unavailable !== 'true')
          return error(404, 'index_not_found_exception', 'no such index');
        return { acknowledged: true };
      }),
    );
    m.add(
      { method: 'POST', path: '/_bulk' },
      write('indices:data/write/bulk', (p) => this.bulk(p.body, p.querystring.require_alias === 'true')),
    );
    m.add(
      { method: 'POST', path: '/:index/_delete_by_query' },
      write('indices:data/write/delete/byquery', (p) =>
        this.withIndex(p, (idx) => {
          const hits = [...idx.docs.values()].filter((d) => matches(idx, d, p.body.query));
          for (const d of hits) idx.docs.delete(d._id);
          return { deleted: hits.length, total: hits.length, failures: [] };
        }),
      ),
    );
    m.add(
      { method: 'POST', path: '/:index/_count' },
      handle((p) =>
        this.withIndex(p, (idx) => ({
          count: [...idx.docs.values()].filter((d) => matches(idx, d, p.body?.query)).length,
        })),
      ),
    );
    m.add(
      { method: 'POST', path: '/:index/_search' },
      handle((p) => this.withIndex(p, (idx) => this.search(idx, p.body, p.querystring))),
    );
  }

  /** The mock's Connection, with the media-type rules of this fake's version and the wire recorded. */
  connection() {
    const major = () => Number(this.version.split('.')[0]);
    return checkingConnection(this.mock.getConnection() as any, major, this.wire) as any;
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
    const aliases = Object.keys(body?.aliases ?? {});
    this.indices.set(name, {
      settings: body?.settings ?? {},
      mappings: body?.mappings ?? {},
      docs: new Map(),
      aliases: new Set(aliases),
    });
    for (const a of aliases) this.aliases.set(a, name);
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  private bulk(lines: any[], requireAlias: boolean) {
    const items: any[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i += 2) {
      const action = lines[i].index;
      const src = lines[i + 1];
      const target: string = action._index;
      const fail = (type: string, reason: string, status = 400) => {
        errors = true;
        items.push({ index: { _index: target, _id: action._id, status, error: { type, reason } } });
      };
      if (requireAlias && !this.aliases.has(target)) {
        fail(
          'index_not_found_exception',
          `no such index [${target}] and [require_alias] request flag is [true] and [${target}] is not an alias`,
          404,
        );
        continue;
      }
      const name = this.aliases.get(target) ?? target;
      // action.auto_create_index (default true): a bulk into a missing index creates it, mapping guessed from the doc.
      if (!this.indices.has(name)) this.create(name, { mappings: { properties: dynamicMapping(src) } });
      const idx = this.indices.get(name)!;
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
      // As Elasticsearch: a document may lack the vector field (it is then never a kNN hit), not have a wrong one.
      const hasVector = src.embedding !== undefined && src.embedding !== null;
      if (dims !== undefined && hasVector && (!Array.isArray(src.embedding) || src.embedding.length !== dims)) {
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
      // Multi-fields are indexed from their parent's values (copy_to ones included).
      if (props.search_text?.fields?.unigram && fieldText.search_text) fieldText[UNIGRAM] = fieldText.search_text;
      for (const [f, texts] of Object.entries(fieldText)) {
        const toks = texts.flatMap((t) => analyzerFor(f)(t));
        const tf = new Map<string, number>();
        for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
        terms.set(f, tf);
        lengths.set(f, toks.length);
      }
      const existed = idx.docs.has(action._id);
      idx.docs.set(action._id, { _id: action._id, source: src, terms, lengths });
      items.push({
        index: {
          _index: name,
          _id: action._id,
          status: existed ? 200 : 201,
          result: existed ? 'updated' : 'created',
        },
      });
    }
    return { took: 1, errors, items };
  }

  private search(idx: Index, body: any, qs: Record<string, string>) {
    const size = body.size ?? 10;
    const limit = limitError(body);
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
        const list = ret.standard ? run(idx, ret.standard.query) : knn(idx, ret.knn).map((h) => ({ ...h, named: {} }));
        list.slice(0, window).forEach((h, rank) => {
          const cur = fused.get(h.d._id) ?? { d: h.d, score: 0, named: {} };
          cur.score += 1 / (k + rank + 1);
          Object.assign(cur.named, h.named);
          fused.set(h.d._id, cur);
        });
      }
      results = [...fused.values()].sort((a, b) => b.score - a.score);
    } else if (body.knn) {
      results = knn(idx, body.knn).map((h) => ({ ...h, named: {} }));
    } else {
      results = run(idx, body.query ?? { match_all: {} });
    }
    if (body.rescore) {
      const rs = [body.rescore].flat()[0];
      const window = rs.window_size ?? 10;
      const qw = rs.query.query_weight ?? 1;
      const rw = rs.query.rescore_query_weight ?? 1;
      const head = results.slice(0, window).map((h) => {
        const rq = rs.query.rescore_query;
        const s = textScore(idx, h.d, rq);
        const name = nameOf(rq);
        // Named rescore queries are reported like the main query's (ES ≥ 8.8, elastic/elasticsearch#94562).
        const named = s > 0 && name ? { ...h.named, [name]: s } : h.named;
        return { ...h, named, score: s > 0 ? qw * h.score + rw * s : qw * h.score };
      });
      head.sort((a, b) => b.score - a.score);
      results = [...head, ...results.slice(window)];
    }
    // Field sorts (ascending or descending) and search_after over their values, as a paged read uses them.
    const sorts: Array<[string, 'asc' | 'desc']> = (body.sort ?? []).map((x: any) => {
      const [field, order] = typeof x === 'string' ? [x, 'asc'] : Object.entries(x)[0];
      return [field, typeof order === 'string' ? order : (order as any).order];
    });
    const sortValues = (d: Doc) => sorts.map(([f]) => d.source[f]);
    const compare = (a: unknown[], b: unknown[]) => {
      for (let i = 0; i < sorts.length; i++) {
        const dir = sorts[i][1] === 'desc' ? -1 : 1;
        if ((a[i] as any) < (b[i] as any)) return -dir;
        if ((a[i] as any) > (b[i] as any)) return dir;
      }
      return 0;
    };
    if (sorts.length) {
      results = [...results].sort((x, y) => compare(sortValues(x.d), sortValues(y.d)));
      if (body.search_after) results = results.filter((h) => compare(sortValues(h.d), body.search_after) > 0);
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
          ...(sorts.length ? { sort: sortValues(h.d) } : {}),
          ...(Object.keys(h.named).length
            ? { matched_queries: qs.include_named_queries_score === 'true' ? h.named : Object.keys(h.named) }
            : {}),
        })),
      },
    };
  }
}
