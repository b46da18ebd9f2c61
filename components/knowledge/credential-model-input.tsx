'use client';
/**
 * What the knowledge page's model choices share (embeddings when a knowledge base is made, reranking in the search
 * playground): the workspace's OpenAI-compatible credentials, and a model name typed or picked from the chosen
 * credential's models of one kind (the provider's list, else the catalogue's).
 */
import { useEffect, useId, useState } from 'react';
import { authApi, type CredentialView, type ModelKind } from '@/components/api/auth-api';
import { useCredentialModels } from '@/components/api/use-credential-models';

/** The workspace's OpenAI-compatible credentials; none for a member who may not list them. */
export function useOpenAiCredentials(): CredentialView[] {
  const [credentials, setCredentials] = useState<CredentialView[]>([]);
  useEffect(() => {
    let cancelled = false;
    authApi.listCredentials().then(
      (all) => !cancelled && setCredentials(all.filter((c) => c.type === 'openai')),
      () => undefined, // not allowed to list them
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return credentials;
}

/** A model name, free text with the credential's models of `kind` offered (`${testId}-options` lists them). */
export function ModelNameInput({
  credentialId,
  kind,
  value,
  onChange,
  testId,
  placeholder,
  className,
}: {
  credentialId: string;
  kind: ModelKind;
  value: string;
  onChange: (model: string) => void;
  testId: string;
  /** An example model id (not a label). */
  placeholder: string;
  className: string;
}) {
  const listId = useId();
  const models = useCredentialModels(credentialId, kind);
  return (
    <>
      <input
        className={className}
        data-testid={testId}
        list={models?.ids.length ? listId : undefined}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {models && models.ids.length > 0 && (
        <datalist id={listId} data-testid={`${testId}-options`}>
          {models.ids.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
      )}
    </>
  );
}
