/**
 * Reranking: a cross-encoder model scores each candidate passage against the query, and the hits are ordered by that
 * score. Two HTTP shapes are spoken: the `/rerank` API that Jina, SiliconFlow, Cohere, Xinference, vLLM and others
 * serve (`{ model, query, documents, top_n }` → `{ results: [{ index, relevance_score }] }`), and DashScope's
 * text-rerank service (`{ model, input: { query, documents }, parameters }` → `{ output: { results } }`). Calls go
 * through the SSRF guard's fetch; an answer that does not fit is refused with RERANK_FAILED, never half used.
 */
import { PaiError } from '../errors';
import type { GuardedFetch } from '../net/ssrf-guard';
import { readTextLimited } from '../net/read-limited';
import type { KnowledgeHit } from './types';

export interface Reranker {
  /** e.g. "BAAI/bge-reranker-v2-m3 (api.siliconflow.cn)": for messages and the answer. */
  readonly label: string;
  /** A relevance score per document, by its index in `documents`. */
  score(query: string, documents: string[], opts?: { signal?: AbortSignal }): Promise<number[]>;
}

/** The candidates a rerank looks at when the request does not say: four times what is asked, at least 20. */
export function candidatesFor(topK: number, topN?: number): number {
  return Math.max(topK, topN ?? Math.max(20, topK * 4));
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class ApiReranker implements Reranker {
  readonly label: string;
  private readonly dashscope: boolean;

  constructor(
    private readonly o: { baseURL: string; apiKey?: string; model: string; fetch: GuardedFetch; timeoutMs?: number },
  ) {
    const host = new URL(o.baseURL).host;
    this.dashscope = /(^|\.)dashscope(-intl)?\.aliyuncs\.com$/.test(new URL(o.baseURL).hostname);
    this.label = `${o.model} (${host})`;
  }

  /** Where the request goes: DashScope's service path on its host, else `<baseURL>/rerank`. */
  private url(): string {
    if (this.dashscope) return `${new URL(this.o.baseURL).origin}/api/v1/services/rerank/text-rerank/text-rerank`;
    return `${this.o.baseURL.replace(/\/+$/, '')}/rerank`;
  }

  async score(query: string, documents: string[], opts: { signal?: AbortSignal } = {}): Promise<number[]> {
    if (!documents.length) return [];
    const body = this.dashscope
      ? {
          model: this.o.model,
          input: { query, documents },
          parameters: { return_documents: false, top_n: documents.length },
        }
      : { model: this.o.model, query, documents, top_n: documents.length, return_documents: false };
    let res: Response;
    try {
      res = await this.o.fetch(this.url(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: opts.signal,
        timeoutMs: this.o.timeoutMs ?? 30_000,
      });
    } catch (e) {
      if (e instanceof PaiError || opts.signal?.aborted) throw e;
      throw this.failed(`could not be reached: ${(e as Error).message}`, true);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      // The body is not repeated: a provider's 401 page may echo the key.
      throw this.failed(
        `answered ${res.status}${res.status === 401 || res.status === 403 ? ': the API key was rejected' : ''}`,
        res.status === 429 || res.status >= 500,
      );
    }
    const text = await readTextLimited(res, MAX_ANSWER_BYTES, { code: 'RERANK_FAILED', what: 'rerank answer' });
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw this.failed('answered something that is not JSON', false);
    }
    return this.scoresIn(answer, documents.length);
  }

  /** Every document's score from the answer; a result list that leaves one out or names another is refused. */
  private scoresIn(answer: unknown, count: number): number[] {
    const a = answer as { results?: unknown; output?: { results?: unknown } } | null;
    const results = this.dashscope ? a?.output?.results : a?.results;
    if (!Array.isArray(results)) throw this.failed('answered without a results list', false);
    const scores: Array<number | undefined> = new Array(count).fill(undefined);
    for (const r of results as Array<{ index?: unknown; relevance_score?: unknown; score?: unknown }>) {
      const score = r?.relevance_score ?? r?.score;
      if (!Number.isInteger(r?.index) || (r.index as number) < 0 || (r.index as number) >= count)
        throw this.failed(`answered a result for document ${String(r?.index)} of ${count}`, false);
      if (typeof score !== 'number' || !Number.isFinite(score))
        throw this.failed(`answered no numeric score for document ${r.index}`, false);
      scores[r.index as number] = score;
    }
    const missing = scores.findIndex((s) => s === undefined);
    if (missing >= 0) throw this.failed(`answered no score for document ${missing} of ${count}`, false);
    return scores as number[];
  }

  private failed(what: string, retryable: boolean): PaiError {
    return new PaiError('RERANK_FAILED', `the rerank model ${this.label} ${what}`, { retryable });
  }
}

/**
 * The hits in the order of `reranker`'s scores, best first, `topK` of them, each with its `rerank` score as its
 * `score` (the retrieval's score stays in bm25 / knn); citations are numbered again in the new order.
 */
export async function rerankHits(
  reranker: Reranker,
  query: string,
  hits: KnowledgeHit[],
  topK: number,
  signal?: AbortSignal,
): Promise<KnowledgeHit[]> {
  const scores = await reranker.score(
    query,
    hits.map((h) => {
      const text = h.question ? `${h.question}\n${h.text}` : h.text;
      return h.headingPath?.length ? `${h.headingPath.join(' > ')}\n${text}` : text;
    }),
    { signal },
  );
  return hits
    .map((h, i) => ({ hit: h, score: scores[i], i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, topK)
    .map(({ hit, score }, i) => ({ ...hit, citation: `[${i + 1}]`, score, rerank: score, retrievalScore: hit.score }));
}
