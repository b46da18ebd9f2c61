'use client';
/**
 * "Restored unsaved changes from 14:03 — Discard": shown while a draft put back from local storage (local-draft.ts)
 * is not saved yet. Autosave waits for the next edit or Save, so Discard can still bring back the stored version.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useStoreSelector } from '@/components/lib/external-store';
import { Button } from '@/components/ui/button';
import { draftTime, type DraftBannerState, type LocalDraft } from './local-draft';

const selectRestoredAt = (s: DraftBannerState) => s.restoredAt;

export function DraftBanner({ draft }: { draft: LocalDraft }) {
  const t = useTranslations('editor.draft');
  const format = useFormatter();
  const at = useStoreSelector(draft.store, selectRestoredAt);
  if (at === null) return null;
  return (
    <div
      role="status"
      data-testid="draft-banner"
      className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span className="flex-1">{t.rich('restored', { b: (c) => <b>{c}</b>, time: draftTime(at, format) })}</span>
      <Button size="sm" onClick={() => void draft.discard()} data-testid="draft-discard">
        {t('discard')}
      </Button>
    </div>
  );
}
