'use client';
/**
 * The documents of one knowledge base: drop or choose files (several at once) or paste text, each document's status
 * and progress while it is indexed, why one failed (in plain words, the code as detail), delete. The page owns the
 * list and polls it.
 */
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { DocumentDropZone } from './document-drop-zone';
import { DocumentSettings } from './document-settings';
import { knowledgeApi, type KnowledgeBase, type KnowledgeDocument } from './knowledge-api';
import type { KnowledgeT } from './knowledge-text';
import { explainKnowledgeError, type ExplainedError } from './upload-errors';

const STATUS_STYLE: Record<KnowledgeDocument['status'], string> = {
  queued: 'bg-zinc-100 text-zinc-700',
  parsing: 'bg-amber-100 text-amber-800',
  embedding: 'bg-indigo-100 text-indigo-800',
  indexed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};

/** An error as the page shows it: the plain words first, the code and server message underneath. */
export function ErrorBox({ error, testId = 'kb-error' }: { error: ExplainedError; testId?: string }) {
  return (
    <div
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
      role="alert"
      data-testid={testId}
      data-code={error.code || undefined}
    >
      <div>{error.title}</div>
      {error.detail && (
        <div className="mt-1 break-words font-mono text-[11px] text-red-700/80" data-testid={`${testId}-detail`}>
          {error.detail}
        </div>
      )}
    </div>
  );
}

export function KnowledgeDocuments({
  kb,
  docs,
  run,
  onChanged,
}: {
  kb: KnowledgeBase;
  docs: KnowledgeDocument[];
  /** Runs a request, showing what it threw. */
  run: (fn: () => Promise<unknown>) => Promise<void>;
  /** Re-reads the documents and the knowledge bases' counts after an upload or a delete. */
  onChanged: () => Promise<void>;
}) {
  const t = useTranslations('knowledge.documents');
  const [pasteTitle, setPasteTitle] = useState('');
  const [pasteText, setPasteText] = useState('');

  return (
    <div className="rounded-xl border border-zinc-200 bg-white">
      <div className="flex flex-wrap items-center gap-3 border-b border-zinc-200 p-3">
        <DocumentDropZone
          onFiles={(files) =>
            void run(async () => {
              try {
                await knowledgeApi.uploadFiles(kb.id, files);
              } finally {
                await onChanged().catch(() => {}); // a refused upload's own error is the one to show
              }
            })
          }
        />
      </div>
      <form
        className="flex flex-col gap-2 border-b border-zinc-200 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await knowledgeApi.uploadText(kb.id, pasteTitle.trim(), pasteText);
            setPasteTitle('');
            setPasteText('');
            await onChanged();
          });
        }}
      >
        <input
          className="rounded border border-zinc-300 px-2 py-1 text-sm"
          placeholder={t('titlePlaceholder')}
          value={pasteTitle}
          onChange={(e) => setPasteTitle(e.target.value)}
          data-testid="doc-title"
        />
        <textarea
          className="h-20 rounded border border-zinc-300 px-2 py-1 text-sm"
          placeholder={t('textPlaceholder')}
          value={pasteText}
          onChange={(e) => setPasteText(e.target.value)}
          data-testid="doc-text"
        />
        <div>
          <Button type="submit" size="sm" disabled={!pasteTitle.trim() || !pasteText.trim()} data-testid="doc-add">
            {t('addText')}
          </Button>
        </div>
      </form>
      <ul className="divide-y divide-zinc-100" data-testid="doc-list">
        {docs.map((d) => (
          <DocumentRow
            key={d.id}
            doc={d}
            onDelete={() => void run(() => knowledgeApi.removeDocument(kb.id, d.id).then(onChanged))}
            settings={<DocumentSettings kbId={kb.id} doc={d} onChanged={onChanged} />}
          />
        ))}
        {docs.length === 0 && <li className="px-3 py-4 text-sm text-zinc-500">{t('empty')}</li>}
      </ul>
    </div>
  );
}

function DocumentRow({
  doc: d,
  onDelete,
  settings,
}: {
  doc: KnowledgeDocument;
  onDelete: () => void;
  settings: ReactNode;
}) {
  const t = useTranslations('knowledge.documents');
  const tk = useTranslations('knowledge');
  const failure = d.error ? explainKnowledgeError(d.error, tk as unknown as KnowledgeT) : null;
  return (
    <li
      className={`px-3 py-2 text-sm ${d.enabled === false ? 'opacity-60' : ''}`}
      data-testid="doc-row"
      data-status={d.status}
      data-enabled={d.enabled !== false}
    >
      <div className="flex items-center gap-3">
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[d.status]}`}>
          {t.has(`status.${d.status}`) ? t(`status.${d.status}`) : d.status}
        </span>
        <span className="min-w-0 flex-1 truncate">
          {d.title}
          <span className="ml-2 text-xs text-zinc-400">
            {d.mime}
            {d.pages ? t('pages', { count: d.pages }) : ''} ·{' '}
            {d.status === 'indexed' || d.status === 'failed'
              ? t('chunks', { count: d.chunkCount })
              : d.status === 'queued'
                ? t('waiting')
                : d.status === 'embedding' && d.totalChunks
                  ? t('embedded', { done: d.embeddedChunks ?? 0, total: d.totalChunks })
                  : t('progress', { percent: Math.round(d.progress * 100) })}
          </span>
        </span>
        {d.status !== 'indexed' && d.status !== 'failed' && (
          <span className="h-1.5 w-24 overflow-hidden rounded bg-zinc-100">
            <span className="block h-full bg-indigo-500" style={{ width: `${Math.round(d.progress * 100)}%` }} />
          </span>
        )}
        <Button variant="ghost" size="sm" onClick={onDelete}>
          {t('delete')}
        </Button>
      </div>
      {settings}
      {failure && (
        <div className="mt-1 text-xs text-red-700" data-testid="doc-error" data-code={failure.code}>
          {failure.title}
          <span className="ml-2 font-mono text-[10px] text-red-700/70" title={failure.detail}>
            {failure.code}
          </span>
        </div>
      )}
    </li>
  );
}
