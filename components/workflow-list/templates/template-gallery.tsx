'use client';
/**
 * "New workflow": a gallery of templates (search, category filter, cards, a preview of the selected one's graph and
 * its how-to) with "Use template" and "Blank workflow". Names, descriptions and node labels come from the server in
 * the gallery's language (templates-api.ts); the created workflow opens in the editor.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { galleryText } from './gallery-text';
import { GraphPreview } from './graph-preview';
import { browserLanguage, templatesApi, type GalleryLang, type TemplateInfo } from './templates-api';

/** Whether every word of the query is in the template's name, description, tags or category. */
function matches(t: TemplateInfo, query: string): boolean {
  const hay = [t.name, t.description, t.categoryName, t.category, ...t.tags].join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

export function TemplateGallery({
  onClose,
  onBlank,
  blankBusy,
}: {
  onClose: () => void;
  /** Creates an empty workflow (the list's own "create"). */
  onBlank: () => void;
  blankBusy: boolean;
}) {
  const router = useRouter();
  // The gallery only mounts after a click, so the browser's languages are known on the first render.
  const [lang] = useState<GalleryLang>(browserLanguage);
  const text = galleryText(lang);
  const [templates, setTemplates] = useState<TemplateInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const ctl = new AbortController();
    templatesApi.list(lang, ctl.signal).then(setTemplates, (e) => {
      if (!ctl.signal.aborted) setLoadError(errorMessage(e));
    });
    searchRef.current?.focus();
    return () => ctl.abort();
  }, [lang]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const categories = useMemo(() => {
    const seen = new Map<string, { id: string; name: string; count: number }>();
    for (const t of templates ?? []) {
      const c = seen.get(t.category) ?? { id: t.category, name: t.categoryName, count: 0 };
      c.count++;
      seen.set(t.category, c);
    }
    return [...seen.values()];
  }, [templates]);

  const visible = useMemo(
    () => (templates ?? []).filter((t) => (!category || t.category === category) && matches(t, query)),
    [templates, category, query],
  );
  // The selection follows the filter: a hidden template is never the one "Use template" creates.
  const selected = visible.find((t) => t.id === selectedId) ?? visible[0] ?? null;

  const use = async (t: TemplateInfo) => {
    setCreating(true);
    try {
      const wf = await templatesApi.create(t.id, lang);
      const n = wf.problems?.length ?? 0;
      toast(n ? 'warning' : 'success', text.created(wf.name), n ? text.toSet(n) : undefined);
      router.push(`/workflows/${wf.id}`);
    } catch (e) {
      toast('error', text.createFailed, errorMessage(e));
      setCreating(false);
    }
  };

  const chip = (active: boolean) =>
    'rounded-full px-3 py-1 text-xs font-medium transition-colors ' +
    (active ? 'bg-indigo-600 text-white' : 'bg-zinc-100 text-zinc-700 hover:bg-zinc-200');

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-zinc-950/40 p-4 pt-[6vh]"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label={text.title}
        lang={lang === 'zh' ? 'zh-CN' : 'en'}
        data-testid="template-gallery"
        data-loaded={templates ? 'true' : 'false'}
        className={
          'flex h-[84vh] w-full max-w-6xl flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white ' +
          'shadow-2xl'
        }
      >
        <div className="flex items-center gap-4 border-b border-zinc-200 px-5 py-3">
          <div className="min-w-0 flex-1">
            <h2 className="text-sm font-semibold text-zinc-900">{text.title}</h2>
            <p className="text-xs text-zinc-500">{text.subtitle}</p>
          </div>
          <input
            ref={searchRef}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={text.search}
            aria-label={text.search}
            data-testid="template-search"
            className={
              'h-8 w-72 rounded-md border border-zinc-300 px-3 text-sm outline-none ' +
              'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
            }
          />
          <button type="button" className="text-zinc-400 hover:text-zinc-700" onClick={onClose} aria-label={text.close}>
            ✕
          </button>
        </div>

        <div className="flex flex-wrap gap-2 border-b border-zinc-100 px-5 py-2.5" role="group">
          <button
            type="button"
            className={chip(category === null)}
            aria-pressed={category === null}
            onClick={() => setCategory(null)}
            data-testid="template-category-all"
          >
            {text.all} · {templates?.length ?? 0}
          </button>
          {categories.map((c) => (
            <button
              key={c.id}
              type="button"
              className={chip(category === c.id)}
              aria-pressed={category === c.id}
              onClick={() => setCategory(category === c.id ? null : c.id)}
              data-testid={`template-category-${c.id}`}
            >
              {c.name} · {c.count}
            </button>
          ))}
        </div>

        <div className="flex min-h-0 flex-1">
          <div className="min-h-0 flex-1 overflow-y-auto p-5">
            {loadError && (
              <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800" role="alert">
                {text.loadFailed}: {loadError}
              </div>
            )}
            {!templates && !loadError && <div className="text-sm text-zinc-500">{text.loading}</div>}
            {templates && visible.length === 0 && (
              <div className="text-sm text-zinc-500" data-testid="template-none">
                {text.none}
              </div>
            )}
            <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
              {visible.map((t) => {
                const active = t.id === selected?.id;
                return (
                  <li key={t.id}>
                    <button
                      type="button"
                      onClick={() => setSelectedId(t.id)}
                      onDoubleClick={() => void use(t)}
                      aria-pressed={active}
                      data-testid="template-card"
                      data-template-id={t.id}
                      className={
                        'flex h-full w-full flex-col gap-2 rounded-lg border p-3 text-left transition-colors ' +
                        (active
                          ? 'border-indigo-400 bg-indigo-50/40 ring-2 ring-indigo-100'
                          : 'border-zinc-200 hover:border-zinc-300 hover:bg-zinc-50')
                      }
                    >
                      <GraphPreview graph={t.graph} title={t.name} className="h-20 w-full" />
                      <div className="text-sm font-medium text-zinc-900" data-testid="template-name">
                        {t.name}
                      </div>
                      <div className="line-clamp-2 text-xs text-zinc-600">{t.description}</div>
                      <div className="mt-auto flex items-center gap-2 text-[11px] text-zinc-500">
                        <span className="rounded bg-zinc-100 px-1.5 py-0.5">{t.categoryName}</span>
                        <span>{text.nodes(t.nodeCount)}</span>
                      </div>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>

          <aside
            className="flex w-[26rem] shrink-0 flex-col border-l border-zinc-200 bg-zinc-50/60"
            data-testid="template-detail"
            data-template-id={selected?.id ?? ''}
          >
            {selected && (
              <div className="min-h-0 flex-1 overflow-y-auto p-5">
                <h3 className="text-base font-semibold text-zinc-900">{selected.name}</h3>
                <p className="mt-1 text-sm text-zinc-600">{selected.description}</p>
                <div className="mt-4 text-[11px] font-semibold uppercase tracking-wide text-zinc-500">
                  {text.preview}
                </div>
                <div className="mt-1 rounded-lg border border-zinc-200 bg-white p-2">
                  <GraphPreview graph={selected.graph} title={selected.name} className="h-44 w-full" />
                </div>
                <div className="mt-4 text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{text.howTo}</div>
                <p
                  className="mt-1 whitespace-pre-line text-sm leading-relaxed text-zinc-700"
                  data-testid="template-howto"
                >
                  {selected.howTo}
                </p>
              </div>
            )}
          </aside>
        </div>

        <div className="flex items-center gap-2 border-t border-zinc-200 bg-zinc-50 px-5 py-3">
          <Button onClick={onBlank} disabled={blankBusy || creating} data-testid="blank-workflow">
            {text.blank}
          </Button>
          <span className="flex-1" />
          <Button
            variant="primary"
            onClick={() => selected && void use(selected)}
            disabled={!selected || creating || blankBusy}
            data-testid="use-template"
          >
            {creating ? text.creating : text.use}
          </Button>
        </div>
      </div>
    </div>
  );
}
