'use client';
/**
 * "Preview chunks": pick a file and see the chunks it would make in this knowledge base (its chunking and sizes),
 * each with the section or answer a hit on it returns, before uploading anything.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { ACCEPT } from './document-drop-zone';
import { knowledgeApi, type ChunkPreview, type KnowledgeBase } from './knowledge-api';

export function ChunkPreviewPanel({
  kb,
  run,
}: {
  kb: KnowledgeBase;
  run: (fn: () => Promise<unknown>) => Promise<void>;
}) {
  const t = useTranslations('knowledge.preview');
  const [preview, setPreview] = useState<{ name: string; result: ChunkPreview } | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <details className="rounded-lg border border-zinc-200 bg-white p-3 text-sm" data-testid="chunk-preview">
      <summary className="cursor-pointer text-xs font-semibold uppercase text-zinc-500">{t('heading')}</summary>
      <label className="mt-2 block text-xs text-zinc-600">
        {t('choose')}
        <input
          type="file"
          accept={ACCEPT}
          className="ml-2 text-xs"
          disabled={busy}
          data-testid="chunk-preview-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setBusy(true);
            void run(async () => {
              setPreview({ name: file.name, result: await knowledgeApi.previewChunks(kb.id, file) });
            }).finally(() => setBusy(false));
          }}
        />
      </label>
      {preview && (
        <div className="mt-2 space-y-2">
          <p className="text-xs text-zinc-500" data-testid="chunk-preview-summary">
            {t('summary', {
              name: preview.name,
              total: preview.result.total,
              characters: preview.result.characters,
              shown: preview.result.chunks.length,
            })}
          </p>
          <ol className="max-h-96 space-y-1 overflow-auto">
            {preview.result.chunks.map((c) => (
              <li key={c.index} className="rounded border border-zinc-100 p-2" data-testid="chunk-preview-chunk">
                <div className="text-[11px] text-zinc-400">
                  #{c.index + 1}
                  {c.headingPath?.length ? ` · ${c.headingPath.join(' › ')}` : ''}
                  {c.page ? ` · ${t('page', { page: c.page })}` : ''}
                </div>
                <p className="whitespace-pre-wrap text-zinc-800">{c.text}</p>
                {c.context && (
                  <p
                    className={
                      'mt-1 line-clamp-4 whitespace-pre-wrap border-l-2 border-indigo-200 pl-2 text-xs text-zinc-500'
                    }
                    data-testid="chunk-preview-context"
                  >
                    {t(c.context.kind === 'answer' ? 'answer' : 'parent')} {c.context.text}
                  </p>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </details>
  );
}
