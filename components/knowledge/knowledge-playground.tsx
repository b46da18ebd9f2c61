'use client';
/**
 * The knowledge page: knowledge bases (create, delete), their documents (upload a file or paste text, live status
 * and progress while indexing, delete) and a search playground showing each hit's citation, scores and text, plus
 * the context block a knowledge node would hand to an LLM.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatContext } from '@/engine/knowledge/format-context';
import { Button } from '@/components/ui/button';
import { TopBar } from '@/components/ui/top-bar';
import { ChunkPreviewPanel } from './chunk-preview';
import { CreateKnowledgeBaseForm } from './create-knowledge-base-form';
import { SearchHit } from './search-hit';
import { RerankChoiceFields, rerankField, type RerankChoice } from './rerank-choice';
import { VectorWeightSetting } from './vector-weight-setting';
import { EmbedderCoverageNotice } from './embedder-coverage-notice';
import { knowledgeApi, type Hit, type KnowledgeBase, type KnowledgeDocument } from './knowledge-api';
import { countsLabel, countsOf, indexing } from './knowledge-counts';
import { ErrorBox, KnowledgeDocuments } from './knowledge-documents';
import type { KnowledgeT } from './knowledge-text';
import { explainThrown, type ExplainedError } from './upload-errors';

const MODES = ['hybrid', 'bm25', 'vector'] as const;

/** The search's `filter` from the field's JSON (empty: none); the server says what in it is wrong. */
function filterField(text: string): { filter?: Record<string, unknown> } {
  if (!text.trim()) return {};
  try {
    return { filter: JSON.parse(text) };
  } catch {
    return { filter: text as unknown as Record<string, unknown> }; // refused with its path, as typed
  }
}

export function KnowledgePlayground() {
  const t = useTranslations('knowledge');
  const kt = t as unknown as KnowledgeT;
  const format = useFormatter();
  const fmt = (n: number | null) =>
    n === null ? '—' : format.number(n, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  const [kbs, setKbs] = useState<KnowledgeBase[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [docs, setDocs] = useState<KnowledgeDocument[]>([]);
  const [error, setError] = useState<ExplainedError | null>(null);
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState('hybrid');
  const [topK, setTopK] = useState(5);
  const [threshold, setThreshold] = useState('');
  const [rerank, setRerank] = useState<RerankChoice>({ model: '', topN: '' });
  const [filter, setFilter] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [reranked, setReranked] = useState<{ model: string; candidates: number } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(explainThrown(e, kt));
    }
  };

  // The effects below only start requests; state is set when the answers arrive.
  const showKbs = useCallback((list: KnowledgeBase[]) => {
    setKbs(list);
    setSelected((s) => (s && list.some((k) => k.id === s) ? s : (list[0]?.id ?? null)));
  }, []);
  const refreshKbs = () => run(() => knowledgeApi.list().then(showKbs));
  useEffect(() => {
    knowledgeApi.list().then(showKbs, (e) => setError(explainThrown(e, kt)));
  }, [showKbs, kt]);

  // `loadedFor` names the knowledge base `docs` belong to, so counts are never taken from another one's documents.
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const refreshDocs = useCallback(
    (id: string) =>
      knowledgeApi.documents(id).then((list) => {
        setDocs(list);
        setLoadedFor(id);
      }),
    [],
  );
  // Another knowledge base selected: its documents are loaded (none without a selection), its search hits and the
  // last error cleared. Adjusted while rendering, as React recommends for state that follows another state.
  const [docsOf, setDocsOf] = useState<string | null>(null);
  if (docsOf !== selected) {
    setDocsOf(selected);
    if (!selected) setDocs([]);
    else {
      setHits(null);
      setError(null);
    }
  }
  useEffect(() => {
    if (selected) refreshDocs(selected).catch((e) => setError(explainThrown(e, kt)));
  }, [selected, refreshDocs, kt]);

  // Poll while something is being indexed; when indexing ends, the list's counts are read again as well.
  const pending = indexing(docs);
  const wasPending = useRef(false);
  useEffect(() => {
    if (wasPending.current && !pending) knowledgeApi.list().then(showKbs, () => {});
    wasPending.current = pending;
    if (!selected || !pending) return;
    const t = setInterval(() => void refreshDocs(selected).catch(() => {}), 700);
    return () => clearInterval(t);
  }, [selected, pending, refreshDocs, showKbs]);

  /** After an upload or a delete: the documents, and every knowledge base's counts. */
  const afterChange = useCallback(async () => {
    if (!selected) return;
    await Promise.all([refreshDocs(selected), knowledgeApi.list().then(showKbs)]);
  }, [selected, refreshDocs, showKbs]);

  const kb = kbs?.find((k) => k.id === selected) ?? null;

  return (
    <div className="flex min-h-full flex-col">
      <TopBar>
        <span className="text-sm text-zinc-400">{t('title')}</span>
      </TopBar>
      <main className="mx-auto grid w-full max-w-6xl flex-1 grid-cols-[260px_1fr] gap-6 px-6 py-8">
        <aside className="space-y-4">
          <ul className="space-y-1" data-testid="kb-list">
            {kbs?.map((k) => (
              <li key={k.id}>
                <button
                  type="button"
                  onClick={() => setSelected(k.id)}
                  data-testid="kb-item"
                  className={
                    'w-full rounded-md px-3 py-2 text-left text-sm ' +
                    (k.id === selected ? 'bg-indigo-50 font-medium text-indigo-800' : 'hover:bg-zinc-100')
                  }
                >
                  {k.name}
                  <span className="block text-xs text-zinc-500" data-testid="kb-item-counts">
                    {countsLabel(countsOf(k, loadedFor, docs), kt)} · {k.embeddingModel}
                  </span>
                </button>
              </li>
            ))}
            {kbs?.length === 0 && <li className="text-sm text-zinc-500">{t('empty')}</li>}
          </ul>
          <CreateKnowledgeBaseForm
            run={run}
            onCreated={async (created) => {
              await refreshKbs();
              setSelected(created.id);
            }}
          />
        </aside>

        <section className="min-w-0 space-y-6">
          {error && <ErrorBox error={error} />}
          {!kb && kbs !== null && <div className="text-sm text-zinc-500">{t('startHint')}</div>}
          {kb && (
            <>
              <div className="flex items-start justify-between">
                <div>
                  <h1 className="text-xl font-semibold tracking-tight">{kb.name}</h1>
                  <p className="text-xs text-zinc-500">
                    <span data-testid="kb-counts">{countsLabel(countsOf(kb, loadedFor, docs), kt)}</span> ·{' '}
                    {t('meta', {
                      id: kb.id,
                      size: kb.chunkSize,
                      overlap: kb.chunkOverlap,
                      model: kb.embeddingModel,
                      dimension: kb.dimension,
                    })}
                    {kb.chunking && kb.chunking !== 'size' ? ` · ${t(`create.chunkings.${kb.chunking}`)}` : ''}
                  </p>
                </div>
                <a
                  className="mr-2 rounded-md border border-zinc-300 px-2 py-1 text-xs text-zinc-700 hover:bg-zinc-50"
                  href={knowledgeApi.exportUrl(kb.id)}
                  download
                  data-testid="kb-export"
                >
                  {t('export')}
                </a>
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => {
                    if (confirm(t('confirmDelete', { name: kb.name })))
                      void run(async () => {
                        await knowledgeApi.remove(kb.id);
                        await refreshKbs();
                      });
                  }}
                >
                  {t('delete')}
                </Button>
              </div>

              <EmbedderCoverageNotice kbId={kb.id} chunks={docs.reduce((n, d) => n + d.chunkCount, 0)} />
              <VectorWeightSetting
                key={kb.id}
                kb={kb}
                run={run}
                onSaved={(next) =>
                  setKbs((list) => list?.map((k) => (k.id === next.id ? { ...k, ...next } : k)) ?? list)
                }
              />
              <KnowledgeDocuments kb={kb} docs={loadedFor === kb.id ? docs : []} run={run} onChanged={afterChange} />
              <ChunkPreviewPanel key={`preview-${kb.id}`} kb={kb} run={run} />

              <form
                className="flex flex-wrap items-end gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  setBusy(true);
                  void run(async () => {
                    const t = threshold.trim() ? Number(threshold) : undefined;
                    const res = await knowledgeApi.search(kb.id, {
                      query,
                      topK,
                      mode,
                      threshold: t,
                      ...filterField(filter),
                      ...rerankField(rerank),
                    });
                    setHits(res.hits);
                    setReranked(res.reranked ?? null);
                  }).finally(() => setBusy(false));
                }}
              >
                <input
                  className="min-w-64 flex-1 rounded border border-zinc-300 px-2 py-1.5 text-sm"
                  placeholder={t('search.placeholder')}
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                  data-testid="search-query"
                />
                <select
                  className="rounded border border-zinc-300 px-2 py-1.5 text-sm"
                  value={mode}
                  onChange={(e) => setMode(e.target.value)}
                  data-testid="search-mode"
                >
                  {MODES.map((m) => (
                    <option key={m} value={m}>
                      {t(`search.modes.${m}`)}
                    </option>
                  ))}
                </select>
                <label className="text-xs text-zinc-600">
                  {t('search.topK')}
                  <input
                    type="number"
                    min={1}
                    max={50}
                    className="ml-1 w-14 rounded border border-zinc-300 px-1 py-1"
                    value={topK}
                    onChange={(e) => setTopK(Number(e.target.value))}
                  />
                </label>
                <label className="text-xs text-zinc-600">
                  {t('search.threshold')}
                  <input
                    className="ml-1 w-16 rounded border border-zinc-300 px-1 py-1"
                    value={threshold}
                    onChange={(e) => setThreshold(e.target.value)}
                  />
                </label>
                <Button type="submit" variant="primary" disabled={!query.trim() || busy} data-testid="search-run">
                  {t('search.submit')}
                </Button>
                <label className="text-xs text-zinc-600" title={t('search.filterTitle')}>
                  {t('search.filter')}
                  <input
                    className="ml-1 w-64 rounded border border-zinc-300 px-1 py-1 font-mono"
                    // i18n-exempt: an example filter, not a label
                    placeholder='{"lang": "zh"}'
                    spellCheck={false}
                    value={filter}
                    onChange={(e) => setFilter(e.target.value)}
                    data-testid="search-filter"
                  />
                </label>
                <RerankChoiceFields value={rerank} onChange={setRerank} />
              </form>
              {hits && reranked && (
                <p className="text-xs text-zinc-500" data-testid="search-reranked">
                  {t('search.reranked', { model: reranked.model, candidates: reranked.candidates })}
                </p>
              )}

              {hits && (
                <div className="grid grid-cols-[1fr_320px] gap-4">
                  <ol className="space-y-2" data-testid="search-hits">
                    {hits.map((h) => (
                      <SearchHit key={`${h.documentId}:${h.chunkIndex}`} hit={h} fmt={fmt} />
                    ))}
                    {hits.length === 0 && <li className="text-sm text-zinc-500">{t('search.noHits')}</li>}
                  </ol>
                  <div>
                    <div className="mb-1 text-xs font-semibold uppercase text-zinc-500">{t('search.context')}</div>
                    <pre
                      className={
                        'max-h-[480px] overflow-auto whitespace-pre-wrap ' +
                        'rounded-lg bg-zinc-900 p-3 text-xs text-zinc-100'
                      }
                    >
                      {formatContext(hits)}
                    </pre>
                  </div>
                </div>
              )}
            </>
          )}
        </section>
      </main>
    </div>
  );
}
