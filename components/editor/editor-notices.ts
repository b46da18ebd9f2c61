/**
 * The editor store's toasts and save messages, in the UI's language: the store has no hooks, so they read the
 * messages through tr() (components/lib/i18n).
 */
import { errorMessage } from '@/components/api/client';
import { tr } from '@/components/lib/i18n';
import { toast } from '@/components/ui/toast';

export const notify = {
  connectionRefused: (problem: string) => toast('warning', tr('editor.notice.connectionRefused'), problem),
  onlyOneStart: () => toast('warning', tr('editor.notice.onlyOneStart'), tr('editor.notice.onlyOneStartDetail')),
  nothingPasted: () => toast('warning', tr('editor.notice.nothingPasted'), tr('editor.notice.nothingPastedDetail')),
  readOnly: () => toast('info', tr('editor.notice.readOnly'), tr('editor.notice.readOnlyDetail')),
  saveFailed: (e: unknown) => toast('error', tr('editor.notice.saveFailed'), errorMessage(e)),
};

/** The save status's explanation while a conflict waits to be resolved (the toolbar's tooltip). */
export const conflictMessage = () => tr('editor.saveStatus.conflictMessage');
