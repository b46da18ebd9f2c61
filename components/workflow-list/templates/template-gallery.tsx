'use client';
/**
 * "New workflow": a gallery of templates (search, category filter, cards, a preview of the selected one's graph and
 * its how-to) with "Use template" and "Blank workflow". Names, descriptions and node labels come from the server in
 * the gallery's language (templates-api.ts); the created workflow opens in the editor.
 */
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { GraphPreview } from './graph-preview';
import { galleryLang, templatesApi, type TemplateInfo } from './templates-api';

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
  const t = useTranslations('templates');
  // The UI's language: the cards, the created workflow's name and its node labels come from the server in it.
  const locale = useLocale();
  const lang = galleryLang(locale);
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
    for (const x of templates ?? []) {
      const c = seen.get(x.category) ?? { id: x.category, name: x.categoryName, count: 0 };
      c.count++;
      seen.set(x.category, c);
    }
    return [...seen.values()];
  }, [templates]);

  const visible = useMemo(
    () => (templates ?? []).filter((x) => (!category || x.category === category) && matches(x, query)),
    [templates, category, query],
  );
  // The selection follows the filter: a hidden template is never the one "Use template" creates.
  const selected = visible.find((x) => x.id === selectedId) ?? visible[0] ?? null;

  const use = async (template: TemplateInfo) => {
    setCreating(true);
    try {
      const wf = await templatesApi.create(template.id, lang);
      const n = wf.problems?.length ?? 0;
      toast(n ? 'warning' : 'success', t('created', { name: wf.name }), n ? t('toSet', { count: n }) : undefined);
      router.push(`/workflows/${wf.id}`);
    } catch (e) {
      toast('error', t('createFailed'), errorMessage(e));
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
        aria-label={t('title')}
        lang={locale}
        data-testid="template-gallery"
        data-loaded={templates ? 'true' : 'false'}
        className={
          'flex h-[84vh] w-full max-w-6xl flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white ' +
          'shadow-2xl'
        }
      >
        <div className="flex items-center gap-4 border-b border-zinc-200 px-5 py-3">
          <div className="min-w-0 flex-1">
            <h2 className="text-sm font-semibold text-zinc-900">{t('title')}</h2>
            <p className="text-xs text-zinc-500">{t('subtitle')}</p>
          </div>
          <input
            ref={searchRef}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('search')}
            aria-label={t('search')}
            data-testid="template-search"
            className={
              'h-8 w-72 rounded-md border border-zinc-300 px-3 text-sm outline-none ' +
              'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
            }
          />
          <button type="button" className="text-zinc-400 hover:text-zinc-700" onClick={onClose} aria-label={t('close')}>
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
            {t('all')} · {templates?.length ?? 0}
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
                {t('loadFailed', { error: loadError })}
              </div>
            )}
            {!templates && !loadError && <div className="text-sm text-zinc-500">{t('loading')}</div>}
            {templates && visible.length === 0 && (
              <div className="text-sm text-zinc-500" data-testid="template-none">
                {t('none')}
              </div>
            )}
            <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
              {visible.map((template) => {
                const active = template.id === selected?.id;
                return (
                  <li key={template.id}>
                    <button
                      type="button"
                      onClick={() => setSelectedId(template.id)}
                      onDoubleClick={() => void use(template)}
                      aria-pressed={active}
                      data-testid="template-card"
                      data-template-id={template.id}
                      className={
                        'flex h-full w-full flex-col gap-2 rounded-lg border p-3 text-left transition-colors ' +
                        (active
                          ? 'border-indigo-400 bg-indigo-50/40 ring-2 ring-indigo-100'
                          : 'border-zinc-200 hover:border-zinc-300 hover:bg-zinc-50')
                      }
                    >
                      <GraphPreview graph={template.graph} title={template.name} className="h-20 w-full" />
                      <div className="text-sm font-medium text-zinc-900" data-testid="template-name">
                        {template.name}
                      </div>
                      <div className="line-clamp-2 text-xs text-zinc-600">{template.description}</div>
                      <div className="mt-auto flex items-center gap-2 text-[11px] text-zinc-500">
                        <span className="rounded bg-zinc-100 px-1.5 py-0.5">{template.categoryName}</span>
                        <span>{t('nodes', { count: template.nodeCount })}</span>
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
                  {t('preview')}
                </div>
                <div className="mt-1 rounded-lg border border-zinc-200 bg-white p-2">
                  <GraphPreview graph={selected.graph} title={selected.name} className="h-44 w-full" />
                </div>
                <div className="mt-4 text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{t('howTo')}</div>
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
            {t('blank')}
          </Button>
          <span className="flex-1" />
          <Button
            variant="primary"
            onClick={() => selected && void use(selected)}
            disabled={!selected || creating || blankBusy}
            data-testid="use-template"
          >
            {creating ? t('creating') : t('use')}
          </Button>
        </div>
      </div>
    </div>
  );
}
