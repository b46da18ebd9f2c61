'use client';
/**
 * The search playground's rerank step: none (the default), or a rerank model through one of the workspace's
 * OpenAI-compatible credentials — the model picked from that credential's rerank models (the provider's list, else
 * the catalogue's) or typed — scoring `topN` candidates (empty: the server's default, four times top K).
 */
import { useTranslations } from 'next-intl';
import { ModelNameInput, useOpenAiCredentials } from './credential-model-input';

export interface RerankChoice {
  credentialId?: string;
  model: string;
  topN: string;
}

/** The search request's `rerank` for a choice, or nothing when no credential or model is chosen. */
export function rerankField(c: RerankChoice): { rerank?: { credentialId: string; model: string; topN?: number } } {
  const model = c.model.trim();
  if (!c.credentialId || !model) return {};
  const topN = Number(c.topN);
  return { rerank: { credentialId: c.credentialId, model, ...(c.topN.trim() && topN > 0 ? { topN } : {}) } };
}

export function RerankChoiceFields({ value, onChange }: { value: RerankChoice; onChange: (c: RerankChoice) => void }) {
  const t = useTranslations('knowledge.search.rerank');
  const credentials = useOpenAiCredentials();
  if (!credentials.length) return null;

  return (
    <div className="flex flex-wrap items-end gap-2 text-xs text-zinc-600" data-testid="search-rerank">
      <label>
        {t('label')}
        <select
          className="ml-1 rounded border border-zinc-300 bg-white px-1 py-1"
          data-testid="search-rerank-credential"
          value={value.credentialId ?? ''}
          onChange={(e) => onChange({ ...value, credentialId: e.target.value || undefined })}
        >
          <option value="">{t('none')}</option>
          {credentials.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      {value.credentialId && (
        <>
          <label>
            {t('model')}
            <ModelNameInput
              credentialId={value.credentialId}
              kind="rerank"
              className="ml-1 w-56 rounded border border-zinc-300 px-1 py-1"
              testId="search-rerank-model"
              // i18n-exempt: a model id, not a label
              placeholder="BAAI/bge-reranker-v2-m3"
              value={value.model}
              onChange={(model) => onChange({ ...value, model })}
            />
          </label>
          <label title={t('topNTitle')}>
            {t('topN')}
            <input
              type="number"
              min={1}
              max={200}
              className="ml-1 w-16 rounded border border-zinc-300 px-1 py-1"
              data-testid="search-rerank-topn"
              value={value.topN}
              onChange={(e) => onChange({ ...value, topN: e.target.value })}
            />
          </label>
        </>
      )}
    </div>
  );
}
