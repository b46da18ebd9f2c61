'use client';
/**
 * Says on the knowledge base page when its embedder cannot read some of its text (the offline model and Chinese):
 * those chunks and queries are ranked by BM25 alone, and a multilingual embedder is recommended. Reloaded when the
 * knowledge base or its number of indexed chunks changes. The server decides whether to warn (`notice`); the text is
 * composed here from its fields, in the UI's language (the same English words as the server's notice).
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { knowledgeApi, type EmbedderCoverage } from './knowledge-api';
import { parseSearchPath } from './search-path';

/** What the offline model (use-lite) says it reads; other models' words are shown as the server gives them. */
const LATIN_ONLY = /^English and other Latin-script text\b/;

export function EmbedderCoverageNotice({ kbId, chunks }: { kbId: string; chunks: number }) {
  const t = useTranslations('knowledge.coverage');
  const [coverage, setCoverage] = useState<{ kbId: string; value: EmbedderCoverage; search?: string } | null>(null);
  useEffect(() => {
    let live = true;
    knowledgeApi.get(kbId).then(
      (kb) => live && setCoverage({ kbId, value: kb.embedder, search: kb.search }),
      () => {}, // the page shows the knowledge base's own errors; this notice is only a hint
    );
    return () => {
      live = false;
    };
  }, [kbId, chunks]);
  const current = coverage?.kbId === kbId ? coverage : null;
  const value = current?.value ?? null;
  const path = current?.search ? parseSearchPath(current.search) : null;
  const pathText = !path
    ? current?.search
    : path.store === 'embedded'
      ? t('searchEmbedded', { fusion: t(`fusion.${path.fusion}`) })
      : t('searchElasticsearch', { path: t(`esPath.${path.path}`) });
  // Which store and hybrid path searches take (e.g. RRF fused in the app on a Basic-licence Elasticsearch).
  const search = current?.search ? (
    <p className="text-xs text-zinc-500" data-testid="kb-search-path">
      {t('searchPath', { path: pathText ?? current.search })}
    </p>
  ) : null;
  // The server says whether there is something to warn about (`notice`); the words are the page's own.
  if (!value?.notice) return search;
  const covers = !value.covers ? t('someLanguages') : LATIN_ONLY.test(value.covers) ? t('latinOnly') : value.covers;
  const reach = value.uncoveredChunks === null ? t('reachUnknown') : t('reachCount', { count: value.uncoveredChunks });
  const notice = t('notice', { model: value.model, covers, reach, advice: t('advice') });
  return (
    <>
      {search}
      <div
        className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        role="status"
        data-testid="embedder-coverage-notice"
      >
        {notice}
      </div>
    </>
  );
}
