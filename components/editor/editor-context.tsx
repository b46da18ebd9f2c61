'use client';
/** Hands the editor's stores to every component; hooks select just the slice a component needs. */
import { createContext, useCallback, useContext } from 'react';
import type { NodeTypeInfo } from '@/components/api/types';
import { useStoreSelector } from '@/components/lib/external-store';
import type { EditorState, EditorStore, ProblemView } from './editor-store';
import type { RunController } from './run/run-controller';
import type { NodeRunState, RunState, RunStore } from './run/run-store';

export interface EditorContextValue {
  editor: EditorStore;
  runs: RunStore;
  runController: RunController;
  nodeTypes: NodeTypeInfo[];
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditorContext(): EditorContextValue {
  const ctx = useContext(EditorContext);
  if (!ctx) throw new Error('editor components must be inside <EditorContext>');
  return ctx;
}

export function useEditorState<S>(selector: (s: EditorState) => S): S {
  return useStoreSelector(useEditorContext().editor.store, selector);
}

export function useRunState<S>(selector: (s: RunState) => S): S {
  return useStoreSelector(useEditorContext().runs.store, selector);
}

const NO_PROBLEMS: ProblemView[] = [];

/** Only this node's entry: other nodes' trace events do not re-render it. */
export function useNodeRun(id: string): NodeRunState | undefined {
  const select = useCallback((s: RunState) => s.nodes.get(id), [id]);
  return useRunState(select);
}

export function useNodeProblems(id: string): ProblemView[] {
  const select = useCallback((s: EditorState) => s.problemsByNode.get(id) ?? NO_PROBLEMS, [id]);
  return useEditorState(select);
}

export function useNodeType(type: string | undefined): NodeTypeInfo | undefined {
  const { editor } = useEditorContext();
  return type ? editor.types.get(type) : undefined;
}
