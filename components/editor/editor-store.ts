/**
 * The editor's document: nodes and edges (React Flow's controlled state), selection, undo/redo history, the
 * clipboard, validation problems and save state. Graph edits bump `version` (drives autosave); edits that can
 * change validity also bump `contentVersion` (drives re-validation), so dragging a node never re-validates.
 */
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { api, ApiError, errorMessage } from '@/components/api/client';
import type { EngineChoice, Graph, NodeTypeInfo, Problem, Workflow } from '@/components/api/types';
import { createStore, type Store } from '@/components/lib/external-store';
import { toast } from '@/components/ui/toast';
import { layeredLayout } from './auto-layout';
import {
  connectionProblem,
  newEdgeId,
  newNodeData,
  newNodeId,
  normaliseSourceHandle,
  remapRefs,
  toFlow,
  toGraph,
  type FlowEdge,
  type FlowNode,
  type NodeData,
} from './graph-model';

export interface ProblemView extends Problem {
  key: string;
  nodeId?: string;
  edgeId?: string;
  /** Path inside the node (`data.config.model`), '' for the node as a whole; absent for graph-level problems. */
  field?: string;
}

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'error' | 'conflict';

export interface EditorState {
  workflowId: string;
  name: string;
  description: string;
  engine: EngineChoice;
  nodes: FlowNode[];
  edges: FlowEdge[];
  selectedIds: string[];
  revision: number;
  version: number;
  savedVersion: number;
  contentVersion: number;
  saveStatus: SaveStatus;
  saveMessage: string | null;
  problems: ProblemView[];
  problemsByNode: Map<string, ProblemView[]>;
  validatedVersion: number;
  canUndo: boolean;
  canRedo: boolean;
  /** Set when something outside the canvas (problems panel) wants the view to centre on a node. */
  focusRequest: { nodeId: string; at: number } | null;
}

interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

const HISTORY_LIMIT = 100;
const AUTOSAVE_MS = 1500;
const VALIDATE_MS = 350;

let clipboard: Snapshot | null = null;

export class EditorStore {
  readonly store: Store<EditorState>;
  readonly types: Map<string, NodeTypeInfo>;
  private undoStack: Snapshot[] = [];
  private redoStack: Snapshot[] = [];
  private lastHistory = { key: '', at: 0 };
  private autosaveTimer: ReturnType<typeof setTimeout> | undefined;
  private validateTimer: ReturnType<typeof setTimeout> | undefined;
  private validateAbort: AbortController | undefined;
  private saving: Promise<boolean> | null = null;
  private pasteCount = 0;
  private disposed = false;

  constructor(types: NodeTypeInfo[], wf: Workflow) {
    this.types = new Map(types.map((t) => [t.type, t]));
    const { nodes, edges } = toFlow(wf.graph);
    this.store = createStore<EditorState>({
      workflowId: wf.id,
      name: wf.name,
      description: wf.description,
      engine: wf.engine,
      nodes,
      edges,
      selectedIds: [],
      revision: wf.revision,
      version: 0,
      savedVersion: 0,
      contentVersion: 0,
      saveStatus: 'saved',
      saveMessage: null,
      problems: [],
      problemsByNode: new Map(),
      validatedVersion: -1,
      canUndo: false,
      canRedo: false,
      focusRequest: null,
    });
    if (wf.problems)
      this.applyProblems(
        wf.problems,
        nodes.map((n) => n.id),
        edges.map((e) => e.id),
        0,
      );
  }

  /** Called on mount (again after a StrictMode remount): starts the background work that dispose() stopped. */
  activate() {
    this.disposed = false;
    this.scheduleValidate(0);
    if (this.state.version !== this.state.savedVersion) this.scheduleAutosave();
  }

  get state(): EditorState {
    return this.store.get();
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.autosaveTimer);
    clearTimeout(this.validateTimer);
    this.validateAbort?.abort();
  }

  graph(): Graph {
    return toGraph(this.state.nodes, this.state.edges);
  }

  // ---- history -------------------------------------------------------------------------------------------

  /** Records the current graph before a change. Changes with the same key in quick succession (typing) share one step. */
  private pushHistory(key = '', windowMs = 0) {
    const now = Date.now();
    if (key && key === this.lastHistory.key && now - this.lastHistory.at < windowMs) {
      this.lastHistory.at = now;
      return;
    }
    this.lastHistory = { key, at: now };
    this.undoStack.push({ nodes: this.state.nodes, edges: this.state.edges });
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift();
    this.redoStack = [];
  }

  private commit(patch: Partial<EditorState>, opts: { content?: boolean } = {}) {
    const s = this.state;
    const version = s.version + 1;
    const next: EditorState = {
      ...s,
      ...patch,
      version,
      contentVersion: opts.content === false ? s.contentVersion : s.contentVersion + 1,
      saveStatus: s.saveStatus === 'conflict' ? 'conflict' : s.saveStatus === 'saving' ? 'saving' : 'dirty',
      canUndo: this.undoStack.length > 0,
      canRedo: this.redoStack.length > 0,
    };
    if (patch.nodes) next.selectedIds = patch.nodes.filter((n) => n.selected).map((n) => n.id);
    this.store.set(next);
    this.scheduleAutosave();
    if (opts.content !== false) this.scheduleValidate();
  }

  undo = () => {
    const prev = this.undoStack.pop();
    if (!prev) return;
    this.redoStack.push({ nodes: this.state.nodes, edges: this.state.edges });
    this.lastHistory = { key: '', at: 0 };
    this.commit({ nodes: prev.nodes, edges: prev.edges });
  };

  redo = () => {
    const next = this.redoStack.pop();
    if (!next) return;
    this.undoStack.push({ nodes: this.state.nodes, edges: this.state.edges });
    this.lastHistory = { key: '', at: 0 };
    this.commit({ nodes: next.nodes, edges: next.edges });
  };

  // ---- React Flow change handlers -----------------------------------------------------------------------

  onNodesChange = (changes: NodeChange<FlowNode>[]) => {
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
    const problem = this.connectionProblem(c);
    if (problem) {
      toast('warning', 'Connection not allowed', problem);
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
    if (!t) return null;
    if (type === 'start' && this.state.nodes.some((n) => n.type === 'start')) {
      toast('warning', 'Only one start node', 'A workflow has exactly one start node; it already has one.');
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
    if (t?.dynamicOutputs) edges = this.followHandles(node, data, edges);
    this.commit({ nodes: this.state.nodes.map((n) => (n.id === id ? { ...n, data } : n)), edges });
  }

  /** When a branch is renamed its edges follow (matched by position); when one is removed, its edges go with it. */
  private followHandles(node: FlowNode, data: NodeData, edges: FlowEdge[]): FlowEdge[] {
    const ids = (config: Record<string, unknown>) => [
      ...(Array.isArray(config.branches)
        ? config.branches.map((b: { id?: unknown } | null) => String(b?.id ?? ''))
        : []),
      'else',
    ];
    const before = ids(node.data.config);
    const after = ids(data.config);
    if (before.join('\n') === after.join('\n')) return edges;
    if (before.length === after.length) {
      const renamed = new Map<string, string>();
      before.forEach((id, i) => {
        if (id !== after[i]) renamed.set(id, after[i]);
      });
      return edges.map((e) =>
        e.source === node.id && e.sourceHandle != null && renamed.has(e.sourceHandle)
          ? { ...e, sourceHandle: renamed.get(e.sourceHandle)! }
          : e,
      );
    }
    const valid = new Set(after);
    return edges.filter((e) => e.source !== node.id || e.sourceHandle == null || valid.has(e.sourceHandle));
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
    const nodes = this.state.nodes.filter((n) => n.selected);
    if (!nodes.length) return 0;
    const ids = new Set(nodes.map((n) => n.id));
    clipboard = { nodes, edges: this.state.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
    this.pasteCount = 0;
    try {
      void navigator.clipboard
        ?.writeText(JSON.stringify({ format: 'paiflow.clipboard', ...toGraph(clipboard.nodes, clipboard.edges) }))
        .catch(() => {});
    } catch {
      /* the in-app clipboard is enough */
    }
    return nodes.length;
  }

  paste(): number {
    if (!clipboard?.nodes.length) return 0;
    const taken = new Set(this.state.nodes.map((n) => n.id));
    const hasStart = this.state.nodes.some((n) => n.type === 'start');
    const idMap = new Map<string, string>();
    const source = clipboard.nodes.filter((n) => n.type !== 'start' || !hasStart);
    for (const n of source) {
      const id = newNodeId(n.type ?? 'node', taken);
      taken.add(id);
      idMap.set(n.id, id);
    }
    if (!idMap.size) {
      toast('warning', 'Nothing pasted', 'A workflow has exactly one start node.');
      return 0;
    }
    this.pasteCount += 1;
    const offset = 40 * this.pasteCount;
    const pasted: FlowNode[] = source.map((n) => ({
      ...n,
      id: idMap.get(n.id)!,
      selected: true,
      dragging: false,
      position: { x: n.position.x + offset, y: n.position.y + offset },
      data: { ...n.data, config: remapRefs(n.data.config, idMap) as Record<string, unknown> },
    }));
    const edgeIds = new Set(this.state.edges.map((e) => e.id));
    const pastedEdges: FlowEdge[] = clipboard.edges
      .filter((e) => idMap.has(e.source) && idMap.has(e.target))
      .map((e) => {
        const id = newEdgeId(edgeIds);
        edgeIds.add(id);
        return { ...e, id, source: idMap.get(e.source)!, target: idMap.get(e.target)!, selected: false };
      });
    this.pushHistory();
    this.commit({
      nodes: [...this.state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted],
      edges: [...this.state.edges, ...pastedEdges],
    });
    return pasted.length;
  }

  autoLayout() {
    if (!this.state.nodes.length) return;
    const pos = layeredLayout(this.state.nodes, this.state.edges);
    this.pushHistory();
    this.commit(
      { nodes: this.state.nodes.map((n) => (pos.has(n.id) ? { ...n, position: pos.get(n.id)! } : n)) },
      { content: false },
    );
  }

  setMeta(patch: { name?: string; description?: string; engine?: EngineChoice }) {
    this.commit(patch, { content: patch.engine !== undefined });
  }

  // ---- saving ---------------------------------------------------------------------------------------------

  private scheduleAutosave() {
    clearTimeout(this.autosaveTimer);
    if (this.state.saveStatus === 'conflict') return;
    this.autosaveTimer = setTimeout(() => {
      void this.save();
    }, AUTOSAVE_MS);
  }

  /** Saves the draft; resolves true when everything up to now is stored. Concurrent calls queue behind one request. */
  save = async (opts: { manual?: boolean } = {}): Promise<boolean> => {
    clearTimeout(this.autosaveTimer);
    if (this.saving) {
      await this.saving;
      if (this.state.version === this.state.savedVersion) return true;
    }
    const s = this.state;
    if (s.saveStatus === 'conflict') {
      if (opts.manual)
        toast('error', 'Not saved: this workflow was changed elsewhere', 'Reload to get the latest version.');
      return false;
    }
    if (s.version === s.savedVersion && s.saveStatus !== 'error') return true;
    const version = s.version;
    this.store.set({ ...this.state, saveStatus: 'saving', saveMessage: null });
    const run = (async () => {
      try {
        const wf = await api.saveWorkflow(s.workflowId, {
          name: s.name,
          description: s.description,
          engine: s.engine,
          graph: this.graph(),
          revision: s.revision,
        });
        if (this.disposed) return true;
        const now = this.state;
        this.store.set({
          ...now,
          revision: wf.revision,
          savedVersion: version,
          saveStatus: now.version === version ? 'saved' : 'dirty',
          saveMessage: null,
        });
        if (now.version !== version) this.scheduleAutosave();
        return true;
      } catch (e) {
        if (this.disposed) return false;
        if (e instanceof ApiError && e.status === 409) {
          this.store.set({
            ...this.state,
            saveStatus: 'conflict',
            saveMessage: 'Changed elsewhere — reload to get the latest version',
          });
        } else {
          this.store.set({ ...this.state, saveStatus: 'error', saveMessage: errorMessage(e) });
          if (opts.manual) toast('error', 'Save failed', errorMessage(e));
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
      const res = await api.validate(s.workflowId, toGraph(s.nodes, s.edges), ctrl.signal);
      if (ctrl.signal.aborted || this.disposed) return;
      this.applyProblems(res.errors, nodeIds, edgeIds, s.contentVersion);
    } catch (e) {
      if (ctrl.signal.aborted || this.disposed) return;
      // Validation is advisory; a failed request keeps the last problems and retries on the next edit.
      console.warn('[paiflow] validation failed', e);
    }
  };

  private applyProblems(problems: Problem[], nodeIds: string[], edgeIds: string[], contentVersion: number) {
    const views: ProblemView[] = problems.map((p, i) => {
      const v: ProblemView = { ...p, key: `${i}:${p.code}:${p.path}` };
      const mNode = /^nodes\[(\d+)\](?:\.(.*))?$/.exec(p.path);
      const mEdge = /^edges\[(\d+)\](?:\.(.*))?$/.exec(p.path);
      if (mNode) {
        v.nodeId = nodeIds[Number(mNode[1])];
        v.field = mNode[2] ?? '';
      } else if (mEdge) {
        v.edgeId = edgeIds[Number(mEdge[1])];
        const edge = this.state.edges.find((e) => e.id === v.edgeId);
        v.nodeId = edge ? (p.path.endsWith('.target') ? edge.target : edge.source) : undefined;
      } else if (p.nodeIds?.length) {
        v.nodeId = p.nodeIds[0];
      }
      if (!v.nodeId && p.nodeIds?.length) v.nodeId = p.nodeIds[0];
      return v;
    });
    const prev = this.state.problemsByNode;
    const byNode = new Map<string, ProblemView[]>();
    for (const v of views) {
      const ids = new Set(
        [v.nodeId, ...(v.code === 'GRAPH_CYCLE' ? (v.nodeIds ?? []) : [])].filter(Boolean) as string[],
      );
      for (const id of ids) byNode.set(id, [...(byNode.get(id) ?? []), v]);
    }
    // Keep the previous array when a node's problems did not change, so its card does not re-render.
    const sig = (l: ProblemView[]) => l.map((p) => `${p.code}|${p.path}|${p.message}`).join('\n');
    for (const [id, list] of byNode) {
      const old = prev.get(id);
      if (old && sig(old) === sig(list)) byNode.set(id, old);
    }
    this.store.set({ ...this.state, problems: views, problemsByNode: byNode, validatedVersion: contentVersion });
  }
}
