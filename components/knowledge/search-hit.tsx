'use client';
/**
 * One search hit of the playground: citation, title, heading path, chunk and page, scores, and what it gives to read
 * — for a Q&A knowledge base the question that matched above its answer, for parent–child the section with the small
 * chunk that matched shown apart.
 */
import { useTranslations } from 'next-intl';
import type { Hit } from './knowledge-api';

export function SearchHit({ hit: h, fmt }: { hit: Hit; fmt: (n: number | null) => string }) {
  const t = useTranslations('knowledge.search');
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-3 text-sm" data-testid="search-hit">
      <div className="mb-1 flex items-center gap-2">
        <span className="font-mono text-indigo-700" data-testid="search-hit-citation">
          {h.citation}
        </span>
        <span className="font-medium" data-testid="search-hit-title">
          {h.title}
        </span>
        {h.headingPath?.length ? (
          <span className="truncate text-xs text-zinc-500" data-testid="search-hit-headings">
            {h.headingPath.join(' › ')}
          </span>
        ) : null}
        <span className="text-xs text-zinc-400">
          {t('chunk', { index: h.chunkIndex })}
          {h.page ? t('page', { page: h.page }) : ''}
        </span>
        <span className="ml-auto font-mono text-xs text-zinc-500">
          {h.rerank !== undefined
            ? t('rerankScores', {
                rerank: fmt(h.rerank),
                score: fmt(h.retrievalScore ?? null),
                bm25: fmt(h.bm25),
                knn: fmt(h.knn),
              })
            : t('scores', { score: fmt(h.score), bm25: fmt(h.bm25), knn: fmt(h.knn) })}
        </span>
      </div>
      {h.question && (
        <p className="mb-1 font-medium text-zinc-900" data-testid="search-hit-question">
          {t('question')} {h.question}
        </p>
      )}
      {h.matched && (
        <p
          className="mb-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 whitespace-pre-wrap"
          data-testid="search-hit-matched"
        >
          {t('matched')} {h.matched}
        </p>
      )}
      <p className="whitespace-pre-wrap text-zinc-700" data-testid="search-hit-text">
        {h.text}
      </p>
    </li>
  );
}
