'use client';
/**
 * The models an OpenAI-compatible credential can use, for model inputs' suggestions: the provider's own list when
 * it answers, else the catalogue's (GET /api/credentials/:id/models). Kept per credential and kind for the page's
 * life, so moving between nodes does not ask the provider again; a failure leaves the input free text.
 */
import { useEffect, useState } from 'react';
import { authApi, type ModelKind } from './auth-api';

export interface CredentialModels {
  ids: string[];
  source: 'provider' | 'catalogue';
}

const cache = new Map<string, Promise<CredentialModels>>();

function load(credentialId: string, kind: ModelKind): Promise<CredentialModels> {
  const key = `${credentialId}\u0000${kind}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = authApi.credentialModels(credentialId, kind).then((r) => ({
      ids: r.models.map((m) => m.id),
      source: r.source,
    }));
    // A failed answer is not kept: the next look asks again.
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

/** `null` while loading or without a credential; `{ ids: [] }` after a failure. */
export function useCredentialModels(credentialId: string | undefined, kind: ModelKind): CredentialModels | null {
  const [state, setState] = useState<{ key: string; models: CredentialModels } | null>(null);
  const key = credentialId ? `${credentialId}\u0000${kind}` : '';

  useEffect(() => {
    if (!credentialId) return;
    let cancelled = false;
    load(credentialId, kind).then(
      (models) => !cancelled && setState({ key: `${credentialId}\u0000${kind}`, models }),
      () => !cancelled && setState({ key: `${credentialId}\u0000${kind}`, models: { ids: [], source: 'catalogue' } }),
    );
    return () => {
      cancelled = true;
    };
  }, [credentialId, kind]);

  return key && state?.key === key ? state.models : null;
}
