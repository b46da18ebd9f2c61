'use client';
/**
 * Where documents go in: drop files on it (several at once) or choose them; they are sent in one upload, which the
 * server checks whole before it records any (so one refused file leaves nothing half-uploaded).
 */
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';

/** The file types a knowledge base reads (engine/knowledge/parsers.ts). */
export const ACCEPT = '.txt,.md,.markdown,.html,.htm,.pdf,.docx,.csv,.jsonl,.ndjson';

export function DocumentDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const t = useTranslations('knowledge.documents');
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (files.length) onFiles(files);
  };

  return (
    <div
      className={`flex flex-1 flex-wrap items-center gap-3 rounded-lg border-2 border-dashed px-4 py-3 text-sm ${
        over ? 'border-indigo-400 bg-indigo-50' : 'border-zinc-300 bg-zinc-50'
      }`}
      data-testid="doc-drop-zone"
      data-over={over || undefined}
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        take(e.dataTransfer.files);
      }}
    >
      <span className="text-zinc-600">{t('drop')}</span>
      <button
        type="button"
        className="rounded border border-zinc-300 bg-white px-2 py-1 text-zinc-700 hover:bg-zinc-100"
        onClick={() => input.current?.click()}
      >
        {t('choose')}
      </button>
      <span className="text-xs text-zinc-500">{t('formats')}</span>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        className="hidden"
        aria-label={t('upload')}
        data-testid="doc-file"
        onChange={(e) => {
          take(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
