/**
 * The editor's document: nodes and edges (React Flow's controlled state), selection, undo/redo history, the
 * clipboard, validation problems and save state (the saving itself: draft-saver.ts; a refused save: save-conflict.ts).
 * Graph edits bump `version` (drives autosave); edits that can change validity also bump `contentVersion` (drives
 * re-validation), so dragging a node never re-validates.
 */
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { api } from '@/components/api/client';
import type { EngineChoice, Graph, NodeTypeInfo, Problem, Workflow } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';
import { applyLayout, autoLayout } from './auto-layout';
import { followHandles } from './branch-handles';
import { clipboardCopy, copySelection } from './clipboard';
import { DraftSaver } from './draft-saver';
import { conflictMessage, notify } from './editor-notices';
import { initialEditorState, type EditorState } from './editor-state';
import type { WorkflowDoc } from './graph-merge';
import {
  connectionProblem,
  listedOutputs,
  newEdgeId,
  newNodeData,
  newNodeId,
  normaliseSourceHandle,
  toFlow,
  toGraph,
  type FlowEdge,
  type FlowNode,
  type NodeData,
} from './graph-model';
import { problemsByNode, toProblemViews } from './problem-views';
import { documentOf, editorDocument, SaveConflict } from './save-conflict';
import { UndoHistory } from './undo-history';

export type { EditorState, ProblemView, SaveStatus } from './editor-state';

const VALIDATE_MS = 350;

export class EditorStore {
  readonly store: Store<EditorState>;
  readonly types: Map<string, NodeTypeInfo>;
  private history = new UndoHistory();
  private readonly saver: DraftSaver;
  private validateTimer: ReturnType<typeof setTimeout> | undefined;
  private validateAbort: AbortController | undefined;
  private pasteCount = 0;
  private disposed = false;
  readonly conflict = new SaveConflict(this);
  /**
   * A viewer's editor: the graph may be looked at and selected, never changed — no edit is committed, nothing
   * enters the undo history and nothing is ever saved (the server would refuse it with 403 anyway).
   */
  readonly readOnly: boolean;

  constructor(types: NodeTypeInfo[], wf: Workflow, opts: { readOnly?: boolean } = {}) {
    this.readOnly = opts.readOnly ?? false;
    this.types = new Map(types.map((t) => [t.type, t]));
    const { nodes, edges } = toFlow(wf.graph);
    this.store = createStore<EditorState>(initialEditorState(wf, nodes, edges));
    this.saver = new DraftSaver(
      {
        store: this.store,
        readOnly: this.readOnly,
        isDisposed: () => this.disposed,
        document: () => editorDocument(this),
        openConflict: () => void this.conflict.open(),
      },
      documentOf(wf),
    );
    if (wf.problems)
      this.applyProblems(
        wf.problems,
        wf.warnings ?? [],
        nodes.map((n) => n.id),
        edges.map((e) => e.id),
        0,
      );
  }

  /** Called on mount (again after a StrictMode remount): starts the background work that dispose() stopped. */
  activate() {
    this.disposed = false;
    this.scheduleValidate(0);
    if (!this.readOnly && this.state.version !== this.state.savedVersion) this.saver.schedule();
  }

  get state(): EditorState {
    return this.store.get();
  }

  /** The document as stored at `state.revision`: the base of a three-way merge when a save conflicts. */
  get baseDoc(): WorkflowDoc {
    return this.saver.baseDoc;
  }

  /** The page is going away: sends unsaved edits in a request that outlives it (draft-saver.ts). */
  saveOnLeave(): boolean {
    return this.saver.saveOnLeave();
  }

  dispose() {
    this.disposed = true;
    this.saver.cancel();
    clearTimeout(this.validateTimer);
    this.validateAbort?.abort();
  }

  graph(): Graph {
    return toGraph(this.state.nodes, this.state.edges, this.state.conversationVariables);
  }

  // ---- history -------------------------------------------------------------------------------------------

  /** Records the current graph before a change; changes with the same key in quick succession share one step. */
  private pushHistory(key = '', windowMs = 0) {
    if (this.readOnly) return;
    this.history.push({ nodes: this.state.nodes, edges: this.state.edges }, key, windowMs);
  }

  private commit(patch: Partial<EditorState>, opts: { content?: boolean } = {}) {
    if (this.readOnly) return;
    const s = this.state;
    const version = s.version + 1;
    const next: EditorState = {
      ...s,
      ...patch,
      version,
      contentVersion: opts.content === false ? s.contentVersion : s.contentVersion + 1,
      saveStatus: s.saveStatus === 'conflict' ? 'conflict' : s.saveStatus === 'saving' ? 'saving' : 'dirty',
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
    };
    if (patch.nodes) next.selectedIds = patch.nodes.filter((n) => n.selected).map((n) => n.id);
    this.store.set(next);
    this.saver.held = false;
    this.saver.schedule();
    if (opts.content !== false) this.scheduleValidate();
  }

  undo = () => {
    const prev = this.history.undo({ nodes: this.state.nodes, edges: this.state.edges });
    if (!prev) return;
    this.commit({ nodes: prev.nodes, edges: prev.edges });
  };

  redo = () => {
    const next = this.history.redo({ nodes: this.state.nodes, edges: this.state.edges });
    if (!next) return;
    this.commit({ nodes: next.nodes, edges: next.edges });
  };

  // ---- React Flow change handlers -----------------------------------------------------------------------

  onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    // Read-only: selecting (to inspect) and React Flow's measurements pass; moves, removals and additions do not.
    if (this.readOnly) changes = changes.filter((c) => c.type === 'select' || c.type === 'dimensions');
    if (!changes.length) return;
    let structural = false;
    let moved = false;
    let selection = false;
    for (const c of changes) {
      if (c.type === 'remove' || c.type === 'add' || c.type === 'replace') structural = true;
      else if (c.type === 'position' && !c.dragging && c.position) moved = true;
      else if (c.type === 'select') selection = true;
    }
    if (structural) this.pushHistory('delete', 150);
    else if (moved && !this.dragging) this.pushHistory('move', 600); // keyboard nudges
    const nodes = applyNodeChanges(changes, this.state.nodes);
    if (structural) {
      const alive = new Set(nodes.map((n) => n.id));
      const edges = this.state.edges.filter((e) => alive.has(e.source) && alive.has(e.target));
      this.commit({ nodes, edges });
    } else if (moved) {
      this.commit({ nodes }, { content: false });
    } else {
      const patch: Partial<EditorState> = { nodes };
      if (selection) patch.selectedIds = nodes.filter((n) => n.selected).map((n) => n.id);
      this.store.set({ ...this.state, ...patch });
    }
  };

  onEdgesChange = (changes: EdgeChange<FlowEdge>[]) => {
    if (this.readOnly) changes = changes.filter((c) => c.type === 'select');
    if (!changes.length) return;
    const structural = changes.some((c) => c.type === 'remove' || c.type === 'add' || c.type === 'replace');
    if (structural) this.pushHistory('delete', 150);
    const edges = applyEdgeChanges(changes, this.state.edges);
    if (structural) this.commit({ edges });
    else this.store.set({ ...this.state, edges });
  };

  private dragging = false;
  onNodeDragStart = () => {
    this.dragging = true;
    this.pushHistory();
  };
  onNodeDragStop = () => {
    this.dragging = false;
  };

  /** Returns the reason a connection is refused, or null. */
  connectionProblem(
    c: Connection | { source: string | null; target: string | null; sourceHandle?: string | null },
  ): string | null {
    return connectionProblem(c, this.state.nodes, this.state.edges, this.types);
  }

  connect = (c: Connection): boolean => {
    if (this.readOnly) return false;
    const problem = this.connectionProblem(c);
    if (problem) {
      notify.connectionRefused(problem);
      return false;
    }
    const src = this.state.nodes.find((n) => n.id === c.source)!;
    const sourceHandle = normaliseSourceHandle(this.types.get(src.type ?? ''), c.sourceHandle ?? null);
    this.pushHistory();
    const edge: FlowEdge = {
      id: newEdgeId(new Set(this.state.edges.map((e) => e.id))),
      source: c.source,
      target: c.target,
      sourceHandle,
      targetHandle: null,
    };
    this.commit({ edges: [...this.state.edges, edge] });
    return true;
  };

  // ---- node editing ---------------------------------------------------------------------------------------

  addNode(type: string, position: { x: number; y: number }): string | null {
    const t = this.types.get(type);
    if (!t || this.readOnly) return null;
    if (type === 'start' && this.state.nodes.some((n) => n.type === 'start')) {
      notify.onlyOneStart();
      return null;
    }
    const id = newNodeId(type, new Set(this.state.nodes.map((n) => n.id)));
    this.pushHistory();
    const node: FlowNode = {
      id,
      type,
      position: { x: Math.round(position.x), y: Math.round(position.y) },
      data: newNodeData(t),
      selected: true,
    };
    this.commit({ nodes: [...this.state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node] });
    return id;
  }

  /** Replaces a node's data. `historyKey` groups keystrokes in one field into one undo step. */
  updateNodeData(id: string, update: (data: NodeData) => NodeData, historyKey?: string) {
    const node = this.state.nodes.find((n) => n.id === id);
    if (!node) return;
    const data = update(node.data);
    if (data === node.data) return;
    this.pushHistory(historyKey ? `${id}:${historyKey}` : '', 1200);
    let edges = this.state.edges;
    const t = this.types.get(node.type ?? '');
    const listed = listedOutputs(t);
    if (listed) edges = followHandles(node, data, edges, listed);
    this.commit({ nodes: this.state.nodes.map((n) => (n.id === id ? { ...n, data } : n)), edges });
  }

  deleteSelection() {
    const sel = new Set(this.state.nodes.filter((n) => n.selected).map((n) => n.id));
    const selEdges = new Set(this.state.edges.filter((e) => e.selected).map((e) => e.id));
    if (!sel.size && !selEdges.size) return;
    this.pushHistory();
    this.commit({
      nodes: this.state.nodes.filter((n) => !sel.has(n.id)),
      edges: this.state.edges.filter((e) => !selEdges.has(e.id) && !sel.has(e.source) && !sel.has(e.target)),
    });
  }

  selectNode(id: string | null) {
    const nodes = this.state.nodes.map((n) => {
      const selected = n.id === id;
      return n.selected === selected ? n : { ...n, selected };
    });
    const edges = this.state.edges.map((e) => (e.selected ? { ...e, selected: false } : e));
    this.store.set({
      ...this.state,
      nodes,
      edges,
      selectedIds: id ? [id] : [],
      focusRequest: id ? { nodeId: id, at: Date.now() } : this.state.focusRequest,
    });
  }

  copy(): number {
    const copied = copySelection({ nodes: this.state.nodes, edges: this.state.edges });
    if (copied) this.pasteCount = 0;
    return copied;
  }

  paste(): number {
    if (this.readOnly) return 0;
    const pasted = clipboardCopy({ nodes: this.state.nodes, edges: this.state.edges }, this.pasteCount + 1);
    if (!pasted) return 0;
    if (!pasted.nodes.length) {
      notify.nothingPasted();
      return 0;
    }
    this.pasteCount += 1;
    this.pushHistory();
    this.commit({
      nodes: [...this.state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted.nodes],
      edges: [...this.state.edges, ...pasted.edges],
    });
    return pasted.nodes.length;
  }

  /** Lays the graph out (auto-layout.ts, async: ELK) as one undo step; edits made meanwhile are kept. */
  async autoLayout() {
    if (this.readOnly || !this.state.nodes.length) return;
    const layout = await autoLayout(this.state.nodes, this.state.edges, this.types);
    if (this.readOnly || this.disposed) return;
    this.pushHistory();
    this.commit(applyLayout(this.state.nodes, this.state.edges, layout), { content: false });
  }

  setMeta(patch: { name?: string; description?: string; engine?: EngineChoice }) {
    this.commit(patch, { content: patch.engine !== undefined });
  }

  /** Replaces the workflow's conversation variables (the workflow inspector's list). */
  setConversationVariables(list: EditorState['conversationVariables']) {
    this.commit({ conversationVariables: list });
  }

  // ---- saving ---------------------------------------------------------------------------------------------

  /**
   * Replaces the whole document as one undo step (take theirs, a merge, a restored or discarded draft). `revision` and
   * `base` say which stored revision it now sits on; `saved` whether it is that revision's content.
   */
  loadDocument(
    doc: WorkflowDoc,
    at: { revision: number; base: WorkflowDoc; saved: boolean; conflict?: boolean; holdAutosave?: boolean },
  ) {
    if (this.readOnly) return;
    const { nodes, edges } = toFlow(doc.graph);
    this.pushHistory();
    this.saver.baseDoc = at.base;
    this.saver.held = at.holdAutosave ?? false;
    const s = this.state;
    const version = s.version + 1;
    this.store.set({
      ...s,
      name: doc.name,
      description: doc.description,
      engine: doc.engine,
      nodes,
      edges,
      conversationVariables: doc.graph.conversationVariables,
      selectedIds: [],
      revision: at.revision,
      version,
      savedVersion: at.saved ? version : s.savedVersion,
      contentVersion: s.contentVersion + 1,
      saveStatus: at.conflict ? 'conflict' : at.saved ? 'saved' : 'dirty',
      saveMessage: at.conflict ? conflictMessage() : null,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
    });
    if (at.saved) this.saver.cancel();
    else this.saver.schedule();
    this.scheduleValidate();
  }

  /** Keep mine: the same document, now on top of `revision` (the server's), so that the next save overwrites it. */
  rebaseOnto(revision: number, base: WorkflowDoc) {
    this.saver.baseDoc = base;
    this.store.set({ ...this.state, revision, saveStatus: 'dirty', saveMessage: null });
  }

  /** Saves the draft (draft-saver.ts); resolves true when everything up to now is stored. */
  save = (opts: { manual?: boolean } = {}): Promise<boolean> => this.saver.save(opts);

  // ---- validation -----------------------------------------------------------------------------------------

  private scheduleValidate(delay = VALIDATE_MS) {
    clearTimeout(this.validateTimer);
    this.validateTimer = setTimeout(() => {
      void this.validate();
    }, delay);
  }

  validate = async () => {
    this.validateAbort?.abort();
    const ctrl = new AbortController();
    this.validateAbort = ctrl;
    const s = this.state;
    const nodeIds = s.nodes.map((n) => n.id);
    const edgeIds = s.edges.map((e) => e.id);
    try {
      const res = await api.validate(s.workflowId, toGraph(s.nodes, s.edges, s.conversationVariables), ctrl.signal);
      if (ctrl.signal.aborted || this.disposed) return;
      this.applyProblems(res.errors, res.warnings ?? [], nodeIds, edgeIds, s.contentVersion);
    } catch (e) {
      if (ctrl.signal.aborted || this.disposed) return;
      // Validation is advisory; a failed request keeps the last problems and retries on the next edit.
      console.warn('[paiflow] validation failed', e);
    }
  };

  private applyProblems(
    problems: Problem[],
    warnings: Problem[],
    nodeIds: string[],
    edgeIds: string[],
    contentVersion: number,
  ) {
    const views = toProblemViews(problems, nodeIds, edgeIds, this.state.edges);
    const byNode = problemsByNode(views, this.state.problemsByNode);
    this.store.set({
      ...this.state,
      problems: views,
      problemsByNode: byNode,
      warnings: toProblemViews(warnings, nodeIds, edgeIds, this.state.edges),
      validatedVersion: contentVersion,
    });
  }
}
