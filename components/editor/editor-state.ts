/**
 * The editor's document as the views see it (EditorState) and its value for a freshly opened workflow, and the
 * problem view they list. Kept apart from the store (editor-store.ts) so that the views, the undo history and the
 * clipboard share these types without importing the store.
 */
import type { EngineChoice, Graph, Problem, Workflow } from '@/components/api/types';
import type { FlowEdge, FlowNode } from './graph-model';

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
  /** The workflow's conversation variables (graph.conversationVariables), edited in the workflow inspector. */
  conversationVariables: Graph['conversationVariables'];
  selectedIds: string[];
  revision: number;
  version: number;
  savedVersion: number;
  contentVersion: number;
  saveStatus: SaveStatus;
  saveMessage: string | null;
  problems: ProblemView[];
  problemsByNode: Map<string, ProblemView[]>;
  /** What runs but may not do what is meant (a path that reaches no End node): listed, never blocking. */
  warnings: ProblemView[];
  validatedVersion: number;
  canUndo: boolean;
  canRedo: boolean;
  /** Set when something outside the canvas (problems panel) wants the view to centre on a node. */
  focusRequest: { nodeId: string; at: number } | null;
}

/** The graph part of the document: what undo restores and the clipboard holds. */
export interface GraphSnapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** A freshly opened workflow: saved, not yet validated, nothing to undo. */
export function initialEditorState(wf: Workflow, nodes: FlowNode[], edges: FlowEdge[]): EditorState {
  return {
    workflowId: wf.id,
    name: wf.name,
    description: wf.description,
    engine: wf.engine,
    nodes,
    edges,
    conversationVariables: wf.graph.conversationVariables,
    selectedIds: [],
    revision: wf.revision,
    version: 0,
    savedVersion: 0,
    contentVersion: 0,
    saveStatus: 'saved',
    saveMessage: null,
    problems: [],
    problemsByNode: new Map(),
    warnings: [],
    validatedVersion: -1,
    canUndo: false,
    canRedo: false,
    focusRequest: null,
  };
}
