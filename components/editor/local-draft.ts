/**
 * Unsaved edits survive a reload, a crash or a failed save: while the editor holds changes the server has not
 * stored, they are kept in localStorage (one key per user and workflow, written shortly after each edit and when
 * the page goes away) together with the revision and document they were made on. Opening the workflow again puts
 * them back with a "Restored unsaved changes" banner; if the server's revision moved meanwhile, the restored draft
 * goes through the save-conflict flow (save-conflict.ts) like any other conflicting save. The draft is dropped
 * once its content is saved or the user discards it.
 *
 * Two tabs of one workflow share the key (last writer wins, every tab writes again when it closes); each tab only
 * removes the draft it wrote or restored, so saving in one tab never deletes another tab's unsaved work.
 */
import type { useFormatter } from 'next-intl';
import { z } from 'zod';
import { api, errorMessage } from '@/components/api/client';
import type { Workflow } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';
import { tr } from '@/components/lib/i18n';
import { toast } from '@/components/ui/toast';
import { ENGINES, graphSchema } from '@/engine/graph/schema';
import type { EditorStore } from './editor-store';
import { sameDoc } from './graph-merge';
import { documentOf, editorDocument } from './save-conflict';

const WRITE_MS = 400;

const docSchema = z.object({
  name: z.string(),
  description: z.string(),
  engine: z.enum(ENGINES),
  graph: graphSchema,
});

const draftSchema = z.object({
  v: z.literal(1),
  workflowId: z.string(),
  /** The revision the edits were made on, and its document: the base of a merge if the server moved on. */
  revision: z.number().int(),
  base: docSchema,
  mine: docSchema,
  savedAt: z.number(),
  /** The tab that wrote it (see the header). */
  tab: z.string(),
});
export type StoredDraft = z.infer<typeof draftSchema>;

export function draftKey(userId: string | undefined, workflowId: string): string {
  return `paiflow.draft.v1:${userId ?? 'anonymous'}:${workflowId}`;
}

/** What to do with a stored draft when the workflow opens at `wf`. */
export function restorePlan(
  draft: StoredDraft | null,
  wf: Pick<Workflow, 'id' | 'revision' | 'name' | 'description' | 'engine' | 'graph'>,
): 'none' | 'drop' | 'restore' | 'conflict' {
  if (!draft || draft.workflowId !== wf.id) return 'none';
  if (sameDoc(draft.mine, documentOf(wf))) return 'drop'; // nothing unsaved after all
  return draft.revision === wf.revision ? 'restore' : 'conflict';
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled by the browser's settings
  }
}

export interface DraftBannerState {
  /** When the restored draft was written (ms since epoch); null when no restored draft is pending. */
  restoredAt: number | null;
}

export class LocalDraft {
  readonly store: Store<DraftBannerState> = createStore<DraftBannerState>({ restoredAt: null });
  private readonly tab = Math.random().toString(36).slice(2, 10);
  /** The tab whose draft this page restored: ours to remove once saved. */
  private adopted: string | null = null;
  private mayHaveDraft = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private warned = false;

  constructor(
    private readonly editor: EditorStore,
    private readonly key: string,
    private readonly storage: Storage | null = browserStorage(),
  ) {}

  read(): StoredDraft | null {
    const raw = this.storage?.getItem(this.key);
    if (!raw) return null;
    try {
      const parsed = draftSchema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    } catch {
      /* not JSON */
    }
    this.storage?.removeItem(this.key); // unreadable (an older format, a broken write): useless to keep
    return null;
  }

  /**
   * Puts back a draft an earlier page left (call once, before the editor is shown). A draft on an older revision
   * opens the conflict dialog against `wf`.
   */
  restore(wf: Workflow): ReturnType<typeof restorePlan> {
    if (this.editor.readOnly) return 'none';
    const draft = this.read();
    const plan = restorePlan(draft, wf);
    if (plan === 'drop') this.storage?.removeItem(this.key);
    if (!draft || (plan !== 'restore' && plan !== 'conflict')) return plan;
    this.adopted = draft.tab;
    this.mayHaveDraft = true;
    const moved = plan === 'conflict';
    this.editor.loadDocument(draft.mine, {
      revision: draft.revision,
      base: moved ? draft.base : documentOf(wf),
      saved: false,
      conflict: moved,
      holdAutosave: true,
    });
    this.store.set({ restoredAt: draft.savedAt });
    if (moved) void this.editor.conflict.open(wf);
    return plan;
  }

  /** Follows the editor: writes while it has unsaved edits, removes the draft once saved. Returns the stop function. */
  start(): () => void {
    let last = this.editor.state;
    const unsubscribe = this.editor.store.subscribe(() => {
      const s = this.editor.state;
      const prev = last;
      last = s;
      if (s.version === s.savedVersion) {
        if (s.saveStatus === 'saved') this.clear();
      } else if (s.version !== prev.version || s.revision !== prev.revision || s.saveStatus !== prev.saveStatus) {
        this.schedule();
      }
    });
    const flush = () => this.flush();
    if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);
    return () => {
      unsubscribe();
      if (typeof window !== 'undefined') window.removeEventListener('pagehide', flush);
      this.flush();
    };
  }

  /** Drops the unsaved edits: the editor shows the stored version again, and the draft is removed. */
  discard = async () => {
    try {
      const wf = await api.getWorkflow(this.editor.state.workflowId);
      const doc = documentOf(wf);
      this.editor.conflict.close();
      this.editor.loadDocument(doc, { revision: wf.revision, base: doc, saved: true });
    } catch (e) {
      toast('error', tr('editor.draft.discardFailed'), errorMessage(e));
    }
  };

  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), WRITE_MS);
  }

  /** Writes the draft now if the editor has unsaved edits. */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const s = this.editor.state;
    if (!this.storage || this.editor.readOnly || s.version === s.savedVersion) return;
    const draft: StoredDraft = {
      v: 1,
      workflowId: s.workflowId,
      revision: s.revision,
      base: this.editor.baseDoc,
      mine: editorDocument(this.editor),
      savedAt: Date.now(),
      tab: this.tab,
    };
    try {
      this.storage.setItem(this.key, JSON.stringify(draft));
      this.mayHaveDraft = true;
    } catch (e) {
      // Full or disabled storage: the edits are still in memory and autosave keeps trying; say it once.
      if (!this.warned) console.warn('[paiflow] could not keep a local draft', e);
      this.warned = true;
    }
  }

  private clear() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.store.get().restoredAt !== null) this.store.set({ restoredAt: null });
    if (!this.mayHaveDraft || !this.storage) return;
    this.mayHaveDraft = false;
    const stored = this.read();
    if (stored && (stored.tab === this.tab || stored.tab === this.adopted)) this.storage.removeItem(this.key);
  }
}

/** "14:03" today, else the date and time: when the restored draft was written, in the UI's language. */
export function draftTime(at: number, format: Pick<ReturnType<typeof useFormatter>, 'dateTime'>, now = Date.now()) {
  const d = new Date(at);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return sameDay
    ? format.dateTime(d, { hour: '2-digit', minute: '2-digit' })
    : format.dateTime(d, { dateStyle: 'medium', timeStyle: 'short' });
}
