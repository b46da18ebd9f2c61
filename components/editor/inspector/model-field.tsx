'use client';
/**
 * The inspector's control for a node's `model` (LLM, Agent, multi-agent roles, TTS, image, a knowledge node's rerank
 * model): free text, with the
 * models of the node's credential offered as suggestions — the provider's list when it answers, else the
 * catalogue's — so a model the list does not know can still be typed.
 */
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import type { ModelKind } from '@/components/api/auth-api';
import { useCredentialModels } from '@/components/api/use-credential-models';
import { useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import type { Path } from './form-context';

/** Node types whose `model` field names a provider's model, and the kind of model it is. */
const MODEL_KINDS: Record<string, ModelKind> = {
  llm: 'chat',
  agent: 'chat',
  multi_agent: 'chat',
  tts: 'tts',
  image: 'image',
  knowledge: 'rerank',
};

export function modelKindFor(nodeType: string | undefined, name: string): ModelKind | undefined {
  return name === 'model' && nodeType ? MODEL_KINDS[nodeType] : undefined;
}

/** The `credentialId` beside the field at `path` (`data.config.worker.model` → `config.worker.credentialId`). */
function siblingCredential(data: unknown, path: Path): string | undefined {
  let at: unknown = data;
  for (const segment of [...path.slice(1, -1), 'credentialId']) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[segment];
  }
  return typeof at === 'string' && at ? at : undefined;
}

export function ModelInput({
  kind,
  value,
  path,
  placeholder,
  onChange,
  testId,
  label,
  className,
}: {
  kind: ModelKind;
  value: unknown;
  path: Path;
  placeholder?: string;
  onChange: (model: string | undefined) => void;
  testId: string;
  label: string;
  className: string;
}) {
  const t = useTranslations('inspector.model');
  const listId = useId();
  const credentialId = useEditorState((s: EditorState) => {
    const node = s.selectedIds.length === 1 ? s.nodes.find((n) => n.id === s.selectedIds[0]) : undefined;
    return siblingCredential(node?.data, path);
  });
  const models = useCredentialModels(credentialId, kind);
  return (
    <>
      <input
        type="text"
        list={models?.ids.length ? listId : undefined}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        data-testid={testId}
        aria-label={label}
        className={className}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
      {models && models.ids.length > 0 && (
        <datalist id={listId} data-testid={`${testId}-options`}>
          {models.ids.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
      )}
      <p className="mt-1 text-[11px] text-zinc-500" data-testid={`${testId}-source`}>
        {!credentialId
          ? t('noCredential')
          : models === null
            ? t('loading')
            : models.ids.length === 0
              ? t('none')
              : t(models.source === 'provider' ? 'fromProvider' : 'fromCatalogue', { count: models.ids.length })}
      </p>
    </>
  );
}
