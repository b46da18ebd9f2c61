/**
 * Guarantees (issue 45): the editor keeps a workflow's conversation variables — the document it saves and validates
 * holds them as loaded and as edited in the workflow inspector (none: no key at all), and a save conflict's merge
 * keeps my change to them, else theirs; the `{{` autocomplete offers each as `conversation.<name>`; a draft that
 * changed only them differs from its version (the versions list and publish see a change).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeTypeInfo, Workflow } from '@/components/api/types';
import { EditorStore } from './editor-store';
import { mergeWorkflows, type WorkflowDoc } from './graph-merge';
import { diffGraphs } from '@/lib/server/workflows/graph-diff';
import { templateSuggestions } from './inspector/template-suggestions';
import { documentOf, editorDocument } from './save-conflict';

const type = (t: string): NodeTypeInfo => ({
  type: t,
  version: 1,
  label: t,
  category: 'data',
  description: '',
  sideEffects: false,
  configSchema: { type: 'object', properties: {} },
  inputs: t === 'start' ? [] : [{ id: 'in', label: 'in' }],
  outputs: t === 'end' ? [] : [{ id: 'out', label: 'out' }],
  dynamicOutputs: false,
});
const visits = { name: 'visits', type: 'number' as const, default: 0 };
const WF: Workflow = {
  id: 'wf_1',
  name: 'Chat',
  description: '',
  engine: 'auto',
  revision: 1,
  graph: {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: {} } }],
    edges: [],
    conversationVariables: [visits],
  },
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};

const editors: EditorStore[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  for (const e of editors.splice(0)) e.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('conversation variables in the editor', () => {
  it('are in the saved document as loaded and as edited; removing the last drops the key', () => {
    const editor = new EditorStore([type('start')], WF);
    editors.push(editor);
    expect(documentOf(WF).graph.conversationVariables).toEqual([visits]);
    expect(editorDocument(editor).graph.conversationVariables).toEqual([visits]);
    const notes = { name: 'notes', type: 'array[string]' as const };
    editor.setConversationVariables([visits, notes]);
    expect(editor.graph().conversationVariables).toEqual([visits, notes]);
    editor.setConversationVariables([]);
    expect('conversationVariables' in editor.graph()).toBe(false);
  });

  it('a save conflict keeps my change to them, else theirs', () => {
    const base: WorkflowDoc = documentOf(WF);
    const changed = (list: unknown[]): WorkflowDoc =>
      ({ ...base, graph: { ...base.graph, conversationVariables: list } }) as WorkflowDoc;
    const mine = changed([{ ...visits, default: 1 }]);
    const theirs = changed([visits, { name: 'x', type: 'string' }]);
    expect(mergeWorkflows(base, mine, theirs).doc.graph.conversationVariables).toEqual([{ ...visits, default: 1 }]);
    expect(mergeWorkflows(base, base, theirs).doc.graph.conversationVariables).toEqual(
      theirs.graph.conversationVariables,
    );
  });

  it('the `{{` autocomplete offers each as conversation.<name>', () => {
    const editor = new EditorStore([type('start'), type('template')], WF);
    editors.push(editor);
    const s = editor.state;
    expect(templateSuggestions('start', s.nodes, s.edges, editor.types, s.conversationVariables)).toContain(
      'conversation.visits',
    );
  });

  it('a draft that changed only them is not the same as its version', () => {
    const v = { graph: WF.graph, engine: 'auto' as const };
    const draft = {
      graph: { ...WF.graph, conversationVariables: [{ ...visits, default: 5 }] },
      engine: 'auto' as const,
    };
    expect(diffGraphs(v, draft)).toMatchObject({ conversationVariablesChanged: true, same: false });
    expect(diffGraphs(v, v)).toMatchObject({ conversationVariablesChanged: false, same: true });
  });
});
