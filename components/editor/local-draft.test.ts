/**
 * Guarantees of local drafts: an unsaved edit lands in storage shortly after it is made, with the revision and
 * document it was made on; a reload puts it back unsaved, and autosave waits for the user (so Discard still can)
 * until the next edit; a draft on a revision the server has moved past opens the conflict flow with a merge of both;
 * a draft equal to what is stored, an unreadable one or another workflow's is not restored; once the editor holds
 * stored content the draft is removed, but never another tab's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeTypeInfo, Workflow } from '@/components/api/types';
import { EditorStore } from './editor-store';
import { draftKey, LocalDraft, restorePlan } from './local-draft';
import { documentOf } from './save-conflict';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
}

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
const TYPES = ['start', 'template', 'end'].map(type);

const node = (id: string, t: string, label: string, x: number) => ({
  id,
  type: t,
  position: { x, y: 0 },
  data: { label, config: {} },
});
const WF: Workflow = {
  id: 'wf_draft',
  name: 'Flow',
  description: '',
  engine: 'auto',
  revision: 3,
  graph: {
    nodes: [node('start', 'start', 'Start', 0), node('a', 'template', 'A', 300), node('b', 'template', 'B', 600)],
    edges: [
      { id: 'e1', source: 'start', target: 'a' },
      { id: 'e2', source: 'a', target: 'b' },
    ],
  },
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};
const KEY = draftKey('user_1', WF.id);
const relabel = (e: EditorStore, id: string, label: string) => e.updateNodeData(id, (d) => ({ ...d, label }));
const labelIn = (e: EditorStore, id: string) => e.state.nodes.find((n) => n.id === id)?.data.label;

let storage: MemoryStorage;
const editors: EditorStore[] = [];
function open(wf: Workflow = WF) {
  const editor = new EditorStore(TYPES, wf);
  editors.push(editor);
  const draft = new LocalDraft(editor, KEY, storage);
  return { editor, draft };
}

beforeEach(() => {
  vi.useFakeTimers();
  // Validation and autosave call the API, which is not running here: their failures are logged, not asserted.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  storage = new MemoryStorage();
});
afterEach(() => {
  for (const e of editors.splice(0)) e.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('an unsaved edit survives a reload', () => {
  it('is written shortly after the edit, with the revision and document it was made on', () => {
    const { editor, draft } = open();
    draft.start();
    relabel(editor, 'a', 'Edited');
    expect(storage.getItem(KEY)).toBeNull(); // debounced
    vi.advanceTimersByTime(400);
    const stored = draft.read()!;
    expect(stored.revision).toBe(3);
    expect(stored.workflowId).toBe(WF.id);
    expect(stored.mine.graph.nodes.find((n) => n.id === 'a')!.data.label).toBe('Edited');
    expect(stored.base.graph.nodes.find((n) => n.id === 'a')!.data.label).toBe('A');
  });

  it('comes back unsaved after a reload, and autosave waits for the next edit', () => {
    const first = open();
    first.draft.start();
    relabel(first.editor, 'a', 'Edited');
    first.draft.flush(); // the page goes away

    const { editor, draft } = open();
    expect(draft.restore(WF)).toBe('restore');
    expect(labelIn(editor, 'a')).toBe('Edited');
    expect(editor.state.saveStatus).toBe('dirty');
    expect(draft.store.get().restoredAt).toEqual(expect.any(Number));
    draft.start();
    editor.activate();
    vi.advanceTimersByTime(5000);
    expect(editor.state.saveStatus).toBe('dirty'); // autosave would have set 'saving'

    relabel(editor, 'b', 'Edited too');
    vi.advanceTimersByTime(1500);
    expect(editor.state.saveStatus).not.toBe('dirty'); // the autosave started
  });

  it('is removed once the editor holds stored content again (discarded, or saved), and the banner goes', () => {
    const first = open();
    first.draft.start();
    relabel(first.editor, 'a', 'Edited');
    first.draft.flush();
    const { editor, draft } = open();
    draft.restore(WF);
    draft.start();
    const stored = documentOf(WF);
    editor.loadDocument(stored, { revision: WF.revision, base: stored, saved: true });
    expect(storage.getItem(KEY)).toBeNull();
    expect(draft.store.get().restoredAt).toBeNull();
    expect(labelIn(editor, 'a')).toBe('A');
  });

  it('never removes the draft another tab wrote', () => {
    const tabB = open();
    tabB.draft.start();
    relabel(tabB.editor, 'b', 'B in tab B');
    tabB.draft.flush();
    const tabA = open();
    tabA.draft.start();
    relabel(tabA.editor, 'a', 'A in tab A');
    tabA.draft.flush(); // the last writer holds the key
    const stored = documentOf(WF);
    tabB.editor.loadDocument(stored, { revision: WF.revision, base: stored, saved: true });
    const left = tabA.draft.read()!;
    expect(left.mine.graph.nodes.find((n) => n.id === 'a')!.data.label).toBe('A in tab A');
  });
});

describe('a draft on an older revision', () => {
  it('opens the conflict flow, merging the draft with what the server stores now', async () => {
    const first = open();
    first.draft.start();
    relabel(first.editor, 'a', 'Mine A');
    first.draft.flush();

    const moved: Workflow = {
      ...WF,
      revision: 4,
      name: 'Renamed elsewhere',
      graph: {
        ...WF.graph,
        nodes: WF.graph.nodes.map((n) => (n.id === 'b' ? node('b', 'template', 'Theirs B', 600) : n)),
      },
    };
    const { editor, draft } = open(moved);
    expect(draft.restore(moved)).toBe('conflict');
    expect(editor.state.saveStatus).toBe('conflict');
    expect(editor.state.revision).toBe(3); // still on the revision the edits were made on
    expect(labelIn(editor, 'a')).toBe('Mine A');
    await vi.waitFor(() => expect(editor.conflict.state.phase).toBe('ready'));
    const { result, theirs } = editor.conflict.state;
    expect(theirs!.revision).toBe(4);
    expect(result!.clashes).toEqual([]);
    expect(result!.doc.name).toBe('Renamed elsewhere');
    const labels = Object.fromEntries(result!.doc.graph.nodes.map((n) => [n.id, n.data.label]));
    expect(labels).toEqual({ start: 'Start', a: 'Mine A', b: 'Theirs B' });
  });
});

describe('what is not restored', () => {
  it('drops a draft equal to the stored version, ignores another workflow’s, removes an unreadable one', () => {
    const { editor, draft } = open();
    draft.start();
    relabel(editor, 'a', 'Edited');
    draft.flush();
    const stored = draft.read()!;
    expect(restorePlan(stored, { ...WF, id: 'wf_other' })).toBe('none');
    expect(restorePlan({ ...stored, mine: documentOf(WF) }, WF)).toBe('drop');
    expect(restorePlan(stored, { ...WF, revision: 9 })).toBe('conflict');

    storage.setItem(KEY, '{"v":1,"workflowId":');
    expect(open().draft.restore(WF)).toBe('none');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('keys drafts by user and workflow', () => {
    expect(draftKey('u1', 'wf_1')).not.toBe(draftKey('u2', 'wf_1'));
    expect(draftKey('u1', 'wf_1')).not.toBe(draftKey('u1', 'wf_2'));
  });
});
