/**
 * Store hits as a search answers them (KnowledgeHit): numbered, with the text to read — the chunk itself, or for
 * parent–child chunking the parent section (several children of one section make one hit, at the best child's
 * rank) and for Q&A the answer, with the question that matched.
 */
import type { KnowledgeHit, StoreHit } from './types';

/** Children asked of the store per hit wanted, so that siblings folded into one section still leave enough hits. */
export const CHILDREN_PER_HIT = 3;

export function readableHits(found: StoreHit[], limit: number): KnowledgeHit[] {
  const seen = new Set<string>();
  const out: KnowledgeHit[] = [];
  for (const h of found) {
    if (out.length >= limit) break;
    const ctx = h.context;
    if (ctx?.kind === 'parent') {
      const key = `${h.documentId}:${ctx.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push({
      citation: `[${out.length + 1}]`,
      documentId: h.documentId,
      title: h.title,
      chunkIndex: h.chunkIndex,
      page: h.page,
      start: h.start,
      end: h.end,
      ...(h.headingPath?.length ? { headingPath: h.headingPath } : {}),
      ...(ctx?.kind === 'parent'
        ? { text: ctx.text, matched: h.text }
        : ctx?.kind === 'answer'
          ? { text: ctx.text, question: h.text }
          : { text: h.text }),
      score: h.score,
      bm25: h.bm25,
      knn: h.knn,
    });
  }
  return out;
}
