'use client';
/**
 * "Restored unsaved changes from 14:03 — Discard": shown while a draft put back from local storage (local-draft.ts)
 * is not saved yet. Autosave waits for the next edit or Save, so Discard can still bring back the stored version.
 */
import { useStoreSelector } from '@/components/lib/external-store';
import { Button } from '@/components/ui/button';
import { draftTime, type DraftBannerState, type LocalDraft } from './local-draft';

const selectRestoredAt = (s: DraftBannerState) => s.restoredAt;

export function DraftBanner({ draft }: { draft: LocalDraft }) {
  const at = useStoreSelector(draft.store, selectRestoredAt);
  if (at === null) return null;
  return (
    <div
      role="status"
      data-testid="draft-banner"
      className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span className="flex-1">
        <b>Restored unsaved changes from {draftTime(at)}</b> — they are not saved yet: edit on or press Save to keep
        them.
      </span>
      <Button size="sm" onClick={() => void draft.discard()} data-testid="draft-discard">
        Discard
      </Button>
    </div>
  );
}
