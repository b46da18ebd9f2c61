'use client';
/**
 * A knowledge base's vector weight (PATCH /api/knowledge-bases/:id `{ vectorWeight }`): hybrid search's share of the
 * embedding, 0..1, or the default. Saved on its own; the next search uses it.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { knowledgeApi, type KnowledgeBase } from './knowledge-api';

/** The server's default (engine/knowledge/types.ts DEFAULT_VECTOR_WEIGHT), shown when the base sets none. */
const DEFAULT_VECTOR_WEIGHT = 0.3;

export function VectorWeightSetting({
  kb,
  run,
  onSaved,
}: {
  kb: KnowledgeBase;
  run: (fn: () => Promise<void>) => Promise<void>;
  onSaved: (kb: KnowledgeBase) => void;
}) {
  const t = useTranslations('knowledge.vectorWeight');
  const [value, setValue] = useState<string>(kb.vectorWeight == null ? '' : String(kb.vectorWeight));
  const [saved, setSaved] = useState(false);
  const save = (weight: number | null) =>
    run(async () => {
      const next = await knowledgeApi.update(kb.id, { vectorWeight: weight });
      setValue(next.vectorWeight == null ? '' : String(next.vectorWeight));
      setSaved(true);
      onSaved(next);
    });
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-xs text-zinc-600"
      title={t('hint')}
      onSubmit={(e) => {
        e.preventDefault();
        void save(value.trim() === '' ? null : Number(value));
      }}
      data-testid="kb-vector-weight"
    >
      <label>
        {t('label')}
        <input
          type="number"
          min={0}
          max={1}
          step={0.05}
          className="ml-1 w-20 rounded border border-zinc-300 px-1 py-1"
          placeholder={t('default', { value: DEFAULT_VECTOR_WEIGHT })}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setSaved(false);
          }}
          data-testid="kb-vector-weight-input"
        />
      </label>
      <Button type="submit" size="sm" data-testid="kb-vector-weight-save">
        {t('save')}
      </Button>
      {kb.vectorWeight != null && (
        <Button type="button" size="sm" onClick={() => void save(null)}>
          {t('reset')}
        </Button>
      )}
      {saved && <span className="text-emerald-700">{t('saved')}</span>}
    </form>
  );
}
