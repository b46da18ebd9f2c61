/**
 * The headings field of a chunk, in both stores: its heading path (markdown-headings.ts), one per line — the title is
 * in the body already — searched beside the body with HEADINGS_BOOST (embedded/fielded-bm25.ts; Elasticsearch's
 * `headings` field in the BM25 clause's multi_match).
 */
import type { ChunkMeta } from './types';

/**
 * 0 for now: on the retrieval bench (docs/knowledge.md) the field at 0.5 and 1 lowered MRR on the Chinese corpus
 * (0.467 → 0.450 heading queries, 0.549 → 0.527 paraphrases at 1) and moved the English one by ±0.006; the path is
 * still kept, returned with each hit and written to Elasticsearch's `headings` field, ready to weigh.
 */
export const HEADINGS_BOOST = 0;

export function headingsText(c: Pick<ChunkMeta, 'title' | 'headingPath'>): string {
  return c.headingPath?.join('\n') ?? '';
}
