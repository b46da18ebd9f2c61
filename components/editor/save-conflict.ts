/**
 * The save-conflict flow: when a save is refused because the workflow was saved elsewhere (409), or a restored local
 * draft sits on an older revision, this fetches the server's current version and offers three ways on, none of which
 * loses an edit by accident: keep mine (save over theirs, after seeing what theirs changed), take theirs (mine is
 * dropped, one undo step brings it back) and merge (graph-merge.ts; clashing items are picked per item). The
 * conflict dialog (conflict-dialog.tsx) only renders this state. The editor's store (editor-store.ts) owns the flow
 * and passes itself in as the narrow ConflictEditor this module declares, so the two do not import each other.
 */
import { api, errorMessage } from '@/components/api/client';
import type { Graph, Workflow } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';
import { tr } from '@/components/lib/i18n';
import { toast } from '@/components/ui/toast';
import type { EditorState } from './editor-state';
import { mergeWorkflows, sameDoc, type MergeResult, type Side, type WorkflowDoc } from './graph-merge';
import { toFlow, toGraph } from './graph-model';

/** A stored workflow as a document, in the editor's own normal form, so that a round trip is no change. */
export function documentOf(wf: Pick<Workflow, 'name' | 'description' | 'engine' | 'graph'>): WorkflowDoc {
  const { nodes, edges } = toFlow(wf.graph);
  const graph = toGraph(nodes, edges, wf.graph.conversationVariables);
  return { name: wf.name, description: wf.description ?? '', engine: wf.engine, graph };
}

/** What the conflict flow needs of the editor (editor-store.ts). */
export interface ConflictEditor {
  readonly state: Pick<EditorState, 'workflowId' | 'name' | 'description' | 'engine'>;
  /** The document as stored at `state.revision`: the base of the three-way merge. */
  readonly baseDoc: WorkflowDoc;
  graph(): Graph;
  loadDocument(doc: WorkflowDoc, at: { revision: number; base: WorkflowDoc; saved: boolean }): void;
  rebaseOnto(revision: number, base: WorkflowDoc): void;
  save(opts: { manual?: boolean }): Promise<boolean>;
}

/** The editor's document as it would be saved now. */
export function editorDocument(editor: Pick<ConflictEditor, 'state' | 'graph'>): WorkflowDoc {
  const s = editor.state;
  return { name: s.name, description: s.description, engine: s.engine, graph: editor.graph() };
}

export interface Theirs {
  doc: WorkflowDoc;
  revision: number;
  updatedAt: string;
}

export interface ConflictState {
  open: boolean;
  phase: 'loading' | 'ready' | 'error' | 'applying';
  error: string | null;
  theirs: Theirs | null;
  picks: Record<string, Side>;
  /** base → mine vs base → theirs, with `picks` applied. */
  result: MergeResult | null;
}

const CLOSED: ConflictState = { open: false, phase: 'loading', error: null, theirs: null, picks: {}, result: null };

export class SaveConflict {
  readonly store: Store<ConflictState> = createStore(CLOSED);
  private ticket = 0;

  constructor(private readonly editor: ConflictEditor) {}

  get state(): ConflictState {
    return this.store.get();
  }

  /** Opens the dialog on the server's current version (`known` when the caller already has it, else fetched). */
  open = async (known?: Workflow): Promise<void> => {
    const ticket = ++this.ticket;
    this.store.set({ ...CLOSED, open: true });
    let wf: Workflow;
    try {
      wf = known ?? (await api.getWorkflow(this.editor.state.workflowId));
    } catch (e) {
      if (ticket === this.ticket) this.store.set({ ...this.state, phase: 'error', error: errorMessage(e) });
      return;
    }
    if (ticket !== this.ticket) return;
    const theirs: Theirs = { doc: documentOf(wf), revision: wf.revision, updatedAt: wf.updatedAt };
    if (sameDoc(theirs.doc, editorDocument(this.editor))) {
      // Both sides ended up the same: nothing to choose.
      this.editor.loadDocument(theirs.doc, { revision: theirs.revision, base: theirs.doc, saved: true });
      this.store.set(CLOSED);
      toast('info', tr('editor.notice.upToDate'), tr('editor.notice.upToDateDetail'));
      return;
    }
    this.store.set({ ...this.state, phase: 'ready', theirs, result: this.merge(theirs, {}) });
  };

  close = () => {
    this.ticket++;
    this.store.set(CLOSED);
  };

  /** Settles one clash (`MergeClash.key`) for the merge. */
  pick = (key: string, side: Side) => {
    const { theirs, picks } = this.state;
    if (!theirs) return;
    const next = { ...picks, [key]: side };
    this.store.set({ ...this.state, picks: next, result: this.merge(theirs, next) });
  };

  /** Saves mine over theirs (the caller showed what theirs changed and the user confirmed). */
  keepMine = async () => {
    const { theirs } = this.state;
    if (!theirs || this.state.phase !== 'ready') return;
    this.store.set({ ...this.state, phase: 'applying' });
    this.editor.rebaseOnto(theirs.revision, theirs.doc);
    await this.finishWithSave();
  };

  /** Loads theirs and drops mine (as one undo step, so Undo brings mine back). */
  takeTheirs = () => {
    const { theirs } = this.state;
    if (!theirs) return;
    this.editor.loadDocument(theirs.doc, { revision: theirs.revision, base: theirs.doc, saved: true });
    this.close();
    toast('info', tr('editor.notice.loadedTheirs'), tr('editor.notice.loadedTheirsDetail'));
  };

  /** Shows the merge on the canvas and saves it on top of theirs. */
  applyMerge = async () => {
    const { theirs, result } = this.state;
    if (!theirs || !result || result.unresolved.length || this.state.phase !== 'ready') return;
    this.store.set({ ...this.state, phase: 'applying' });
    this.editor.loadDocument(result.doc, { revision: theirs.revision, base: theirs.doc, saved: false });
    await this.finishWithSave();
  };

  private merge(theirs: Theirs, picks: Record<string, Side>): MergeResult {
    return mergeWorkflows(this.editor.baseDoc, editorDocument(this.editor), theirs.doc, picks);
  }

  /** Closes after the save; a new 409 (saved elsewhere again meanwhile) has already reopened on the newer version. */
  private async finishWithSave() {
    const ticket = this.ticket;
    await this.editor.save({ manual: true });
    if (ticket === this.ticket) this.close();
  }
}
