'use client';
/**
 * "Test" beside an OpenAI-compatible credential: asks the provider whether the key works (POST
 * /api/credentials/:id/test) and shows the answer in place — how long it took and how many models the key can use,
 * or why it failed (a refused key, an unreachable host, an address the server refuses and how to allow it).
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authApi, type CredentialTestResult } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';

export function CredentialTestButton({ id, name }: { id: string; name: string }) {
  const t = useTranslations('settings.credentials.test');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CredentialTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await authApi.testCredential(id));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="inline-flex items-center gap-2">
      <Button size="sm" onClick={() => void run()} disabled={busy} aria-label={t('label', { name })}>
        {busy ? t('testing') : t('button')}
      </Button>
      <span data-testid="credential-test-result" className="text-[11px]" role="status">
        {result?.ok && (
          <span className="text-emerald-700">
            {result.models
              ? t('okModels', { ms: result.latencyMs, count: result.models.length })
              : t('ok', { ms: result.latencyMs })}
          </span>
        )}
        {result && !result.ok && <span className="text-red-700">{result.error?.message}</span>}
        {error && <span className="text-red-700">{error}</span>}
      </span>
    </span>
  );
}
