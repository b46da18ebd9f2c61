'use client';
/**
 * The "new knowledge base" form: name, chunking (by size, parent–child, question–answer pairs) with its sizes, and
 * the embedding model.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmbeddingChoiceFields, embeddingFields, type EmbeddingChoice } from './embedding-choice';
import { CHUNKINGS, knowledgeApi, type Chunking, type KnowledgeBase } from './knowledge-api';

export function CreateKnowledgeBaseForm({
  run,
  onCreated,
}: {
  run: (fn: () => Promise<unknown>) => Promise<void>;
  onCreated: (kb: KnowledgeBase) => Promise<void>;
}) {
  const t = useTranslations('knowledge.create');
  const [name, setName] = useState('');
  const [chunkSize, setChunkSize] = useState(512);
  const [chunkOverlap, setChunkOverlap] = useState(100);
  const [chunking, setChunking] = useState<Chunking>('size');
  const [parentChunkSize, setParentChunkSize] = useState('');
  const [embedding, setEmbedding] = useState<EmbeddingChoice>({ model: '' });
  const number = 'w-full rounded border border-zinc-300 px-1 py-0.5';

  return (
    <form
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const created = await knowledgeApi.create({
            name: name.trim(),
            chunking,
            ...(chunking !== 'qa' ? { chunkSize, chunkOverlap } : {}),
            ...(chunking === 'parent-child' && parentChunkSize.trim()
              ? { parentChunkSize: Number(parentChunkSize) }
              : {}),
            ...embeddingFields(embedding),
          });
          setName('');
          setEmbedding({ model: '' });
          await onCreated(created);
        });
      }}
    >
      <div className="text-xs font-semibold uppercase text-zinc-500">{t('heading')}</div>
      <input
        className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
        placeholder={t('name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        data-testid="kb-name"
      />
      <label className="block text-xs text-zinc-600">
        {t('chunking')}
        <select
          className="mt-0.5 w-full rounded border border-zinc-300 px-1 py-1 text-sm"
          value={chunking}
          onChange={(e) => setChunking(e.target.value as Chunking)}
          data-testid="kb-chunking"
        >
          {CHUNKINGS.map((c) => (
            <option key={c} value={c}>
              {t(`chunkings.${c}`)}
            </option>
          ))}
        </select>
        <span className="mt-0.5 block text-[11px] text-zinc-500">{t(`chunkingHints.${chunking}`)}</span>
      </label>
      {chunking !== 'qa' && (
        <div className="flex gap-2 text-xs text-zinc-600">
          <label className="flex-1">
            {t('chunkSize')}
            <input
              type="number"
              className={number}
              value={chunkSize}
              onChange={(e) => setChunkSize(Number(e.target.value))}
            />
          </label>
          <label className="flex-1">
            {t('overlap')}
            <input
              type="number"
              className={number}
              value={chunkOverlap}
              onChange={(e) => setChunkOverlap(Number(e.target.value))}
            />
          </label>
        </div>
      )}
      {chunking === 'parent-child' && (
        <label className="block text-xs text-zinc-600">
          {t('parentChunkSize')}
          <input
            type="number"
            className={number}
            placeholder={String(chunkSize * 4)}
            value={parentChunkSize}
            onChange={(e) => setParentChunkSize(e.target.value)}
            data-testid="kb-parent-size"
          />
        </label>
      )}
      <EmbeddingChoiceFields value={embedding} onChange={setEmbedding} />
      <Button type="submit" variant="primary" size="sm" disabled={!name.trim()} data-testid="kb-create">
        {t('submit')}
      </Button>
      <label className="block border-t border-zinc-100 pt-2 text-xs text-zinc-600">
        {t('import')}
        <input
          type="file"
          accept=".jsonl,.ndjson"
          className="mt-1 block w-full text-xs"
          data-testid="kb-import"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void run(async () => onCreated((await knowledgeApi.importFile(file)).knowledgeBase));
          }}
        />
      </label>
    </form>
  );
}
