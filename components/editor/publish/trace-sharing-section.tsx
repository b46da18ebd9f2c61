'use client';
/**
 * Whether API-key holders may read the node trace of published runs (GET /api/v1/runs/:id): node statuses, timings,
 * token usage and error codes. Node inputs and outputs are never shared, whatever this says.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { publishApi, type PublishStatus } from './publish-api';
import { InlineError, Section } from './publish-ui';

export function TraceSharingSection({
  workflowId,
  status,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  onSaved: (s: PublishStatus) => void;
}) {
  const t = useTranslations('publish.trace');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const shared = status.publicTrace === true;

  const toggle = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await publishApi.setPublicTrace(workflowId, next));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('title')} testId="publish-trace-section">
      <p className="mb-2 text-[12px] text-zinc-600">{t('intro')}</p>
      <label className="flex cursor-pointer items-center gap-2 text-[12px] text-zinc-800">
        <input
          type="checkbox"
          data-testid="public-trace"
          className="accent-indigo-600"
          checked={shared}
          disabled={busy}
          onChange={(e) => void toggle(e.target.checked)}
        />
        {t('share')}
      </label>
      <InlineError error={error} testId="public-trace-error" />
    </Section>
  );
}
