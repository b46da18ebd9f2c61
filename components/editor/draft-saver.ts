/**
 * Saving the editor's draft to the server: autosave a moment after the last edit, one request at a time (a save asked
 * for meanwhile waits for it), and the stored document the draft sits on (`baseDoc`, the base of the three-way merge
 * when a save conflicts). A save refused with 409 hands over to the save-conflict flow (save-conflict.ts).
 * The editor's store (editor-store.ts) owns the saver and gives it the narrow view of itself that saving needs
 * (SaveHost), so that neither module imports the other's class.
 */
import { api, ApiError, errorMessage } from '@/components/api/client';
import type { Store } from '@/components/lib/external-store';
import { conflictMessage, notify } from './editor-notices';
import type { EditorState } from './editor-state';
import type { WorkflowDoc } from './graph-merge';

const AUTOSAVE_MS = 1500;

/** What saving needs of the editor (editor-store.ts). */
export interface SaveHost {
  readonly store: Store<EditorState>;
  /** A viewer's editor never saves. */
  readonly readOnly: boolean;
  /** True once the editor was disposed: a reply that arrives afterwards changes nothing. */
  isDisposed(): boolean;
  /** The document as it would be saved now. */
  document(): WorkflowDoc;
  /** Opens the save-conflict flow on the server's current version. */
  openConflict(): void;
}

export class DraftSaver {
  /** The document as stored at `state.revision`: the base of a three-way merge when a save conflicts. */
  baseDoc: WorkflowDoc;
  /** A restored draft waits for the user's next edit or Save before autosave stores it (so Discard still can). */
  held = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<boolean> | null = null;

  constructor(
    private readonly host: SaveHost,
    baseDoc: WorkflowDoc,
  ) {
    this.baseDoc = baseDoc;
  }

  private get state(): EditorState {
    return this.host.store.get();
  }

  /** Saves after a pause (AUTOSAVE_MS) in these calls; not while held, in conflict, or in a viewer's editor. */
  schedule() {
    clearTimeout(this.timer);
    if (this.host.readOnly || this.held || this.state.saveStatus === 'conflict') return;
    this.timer = setTimeout(() => {
      void this.save();
    }, AUTOSAVE_MS);
  }

  /** Drops a scheduled autosave (the editor went away, or what it would save is stored already). */
  cancel() {
    clearTimeout(this.timer);
  }

  /**
   * The page is going away (`pagehide`) with edits autosave has not stored yet: sends them in a request the browser
   * finishes after the tab closes, on the revision they were made on (a newer one on the server answers 409 and the
   * local draft keeps the edits). Returns whether a request was sent.
   */
  saveOnLeave(): boolean {
    const s = this.state;
    if (this.host.readOnly || this.held || s.version === s.savedVersion) return false;
    // After a refused or failed save the local draft holds the edits (a reload offers them back): no blind retry.
    if (s.saveStatus === 'conflict' || s.saveStatus === 'error') return false;
    if (this.saving) return false; // the save in flight is already sent; what follows it stays in the local draft
    clearTimeout(this.timer);
    return api.saveWorkflowOnLeave(s.workflowId, { ...this.host.document(), revision: s.revision });
  }

  /** Saves the draft; resolves true when everything up to now is stored. Concurrent calls queue behind one request. */
  save = async (opts: { manual?: boolean } = {}): Promise<boolean> => {
    clearTimeout(this.timer);
    const { store } = this.host;
    if (this.host.readOnly) {
      if (opts.manual) notify.readOnly();
      return false;
    }
    if (this.saving) {
      await this.saving;
      if (this.state.version === this.state.savedVersion) return true;
    }
    const s = this.state;
    if (s.saveStatus === 'conflict') {
      if (opts.manual) this.host.openConflict();
      return false;
    }
    if (s.version === s.savedVersion && s.saveStatus !== 'error') return true;
    const version = s.version;
    store.set({ ...this.state, saveStatus: 'saving', saveMessage: null });
    const sent = this.host.document();
    const run = (async () => {
      try {
        const wf = await api.saveWorkflow(s.workflowId, { ...sent, revision: s.revision });
        if (this.host.isDisposed()) return true;
        this.baseDoc = sent;
        const now = this.state;
        store.set({
          ...now,
          revision: wf.revision,
          savedVersion: version,
          saveStatus: now.version === version ? 'saved' : 'dirty',
          saveMessage: null,
        });
        if (now.version !== version) this.schedule();
        return true;
      } catch (e) {
        if (this.host.isDisposed()) return false;
        if (e instanceof ApiError && e.status === 409) {
          store.set({ ...this.state, saveStatus: 'conflict', saveMessage: conflictMessage() });
          this.host.openConflict();
        } else {
          store.set({ ...this.state, saveStatus: 'error', saveMessage: errorMessage(e) });
          if (opts.manual) notify.saveFailed(e);
        }
        return false;
      }
    })();
    this.saving = run;
    try {
      return await run;
    } finally {
      this.saving = null;
    }
  };
}
