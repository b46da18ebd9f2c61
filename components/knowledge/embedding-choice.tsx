'use client';
/**
 * How a new knowledge base embeds: offline with the built-in model (the default, no key), or through one of the
 * workspace's OpenAI-compatible credentials with an embedding model picked from that credential's models (the
 * provider's list, else the catalogue's) or typed. A member who may not list credentials sees the offline choice only.
 */
import { useTranslations } from 'next-intl';
import { ModelNameInput, useOpenAiCredentials } from './credential-model-input';

export interface EmbeddingChoice {
  credentialId?: string;
  /** The model as the provider knows it (no `openai:` prefix); empty → the server's default for a credential. */
  model: string;
}

/** The create request's fields for a choice: `{ credentialId, embeddingModel: "openai:<model>" }` or nothing. */
export function embeddingFields(choice: EmbeddingChoice): { credentialId?: string; embeddingModel?: string } {
  if (!choice.credentialId) return {};
  const model = choice.model.trim();
  return { credentialId: choice.credentialId, ...(model ? { embeddingModel: `openai:${model}` } : {}) };
}

export function EmbeddingChoiceFields({
  value,
  onChange,
}: {
  value: EmbeddingChoice;
  onChange: (choice: EmbeddingChoice) => void;
}) {
  const t = useTranslations('knowledge.create.embedding');
  const credentials = useOpenAiCredentials();

  return (
    <div className="space-y-1 text-xs text-zinc-600">
      <label className="block">
        {t('label')}
        <select
          className="w-full rounded border border-zinc-300 bg-white px-1 py-0.5"
          data-testid="kb-embedding-credential"
          value={value.credentialId ?? ''}
          onChange={(e) => onChange({ credentialId: e.target.value || undefined, model: '' })}
        >
          <option value="">{t('offline')}</option>
          {credentials.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} · {c.masked}
            </option>
          ))}
        </select>
      </label>
      {value.credentialId && (
        <label className="block">
          {t('model')}
          <ModelNameInput
            credentialId={value.credentialId}
            kind="embedding"
            className="w-full rounded border border-zinc-300 px-1 py-0.5"
            testId="kb-embedding-model"
            // i18n-exempt: a model id, not a label
            placeholder="text-embedding-3-small"
            value={value.model}
            onChange={(model) => onChange({ ...value, model })}
          />
        </label>
      )}
    </div>
  );
}
