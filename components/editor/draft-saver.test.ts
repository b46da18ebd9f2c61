/**
 * Guarantees of saving the editor's draft: autosave stores an edit after a pause in editing, not before; a save asked
 * for while one is in flight waits for it and then stores what changed meanwhile, one request at a time, each on the
 * revision the last one returned; a save the server refuses with 409 marks the draft in conflict and opens the
 * conflict flow, and nothing is saved until that is resolved; a viewer's editor never saves; edits not yet stored
 * when the page goes away are sent in a keepalive request.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '@/components/api/client';
import type { Workflow } from '@/components/api/types';
import { createStore } from '@/components/lib/external-store';
import { DraftSaver } from './draft-saver';
import { initialEditorState } from './editor-state';
import type { WorkflowDoc } from './graph-merge';

const WF: Workflow = {
  id: 'wf_save',
  name: 'Flow',
  description: '',
  engine: 'auto',
  revision: 3,
  graph: { nodes: [], edges: [] },
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};
const stored = (revision: number) => ({ ...WF, revision, problems: [] });

function open(opts: { readOnly?: boolean } = {}) {
  const store = createStore(initialEditorState(WF, [], []));
  let doc: WorkflowDoc = { name: WF.name, description: '', engine: 'auto', graph: WF.graph };
  const openConflict = vi.fn();
  const saver = new DraftSaver(
    { store, readOnly: opts.readOnly ?? false, isDisposed: () => false, document: () => doc, openConflict },
    doc,
  );
  /** An edit, as the editor commits it: a new document, a new version, and autosave asked for. */
  const edit = (name: string) => {
    doc = { ...doc, name };
    const s = store.get();
    const saveStatus = s.saveStatus === 'conflict' || s.saveStatus === 'saving' ? s.saveStatus : 'dirty';
    store.set({ ...s, name, version: s.version + 1, saveStatus });
    saver.schedule();
  };
  return { store, saver, edit, openConflict };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('saving the draft', () => {
  it('autosaves after a pause in editing, not before', async () => {
    const request = vi.spyOn(api, 'saveWorkflow').mockResolvedValue(stored(4));
    const { store, saver, edit } = open();
    edit('One');
    await vi.advanceTimersByTimeAsync(1000);
    edit('Two');
    await vi.advanceTimersByTimeAsync(1000);
    expect(request).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0]).toEqual([WF.id, expect.objectContaining({ name: 'Two', revision: 3 })]);
    expect(store.get()).toMatchObject({ saveStatus: 'saved', revision: 4, savedVersion: 2 });
    expect(saver.baseDoc.name).toBe('Two');
  });

  it('sends one request at a time: a save asked for meanwhile waits, then stores the later edits', async () => {
    let answerFirst!: (wf: ReturnType<typeof stored>) => void;
    const request = vi
      .spyOn(api, 'saveWorkflow')
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(stored(5));
    const { store, saver, edit } = open();
    edit('One');
    const first = saver.save();
    edit('Two');
    const second = saver.save();
    await vi.advanceTimersByTimeAsync(0);
    expect(request).toHaveBeenCalledTimes(1);
    answerFirst(stored(4));
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(request).toHaveBeenCalledTimes(2);
    expect(request.mock.calls[1]).toEqual([WF.id, expect.objectContaining({ name: 'Two', revision: 4 })]);
    expect(store.get()).toMatchObject({ saveStatus: 'saved', revision: 5, savedVersion: 2 });
  });

  it('a save refused with 409 opens the conflict flow, and nothing is saved until it is resolved', async () => {
    const request = vi
      .spyOn(api, 'saveWorkflow')
      .mockRejectedValue(new ApiError(409, 'REVISION_CONFLICT', 'saved elsewhere'));
    const { store, saver, edit, openConflict } = open();
    edit('Mine');
    expect(await saver.save()).toBe(false);
    expect(store.get().saveStatus).toBe('conflict');
    expect(openConflict).toHaveBeenCalledTimes(1);
    edit('Mine again');
    await vi.advanceTimersByTimeAsync(5000);
    expect(await saver.save({ manual: true })).toBe(false);
    expect(request).toHaveBeenCalledTimes(1);
    expect(openConflict).toHaveBeenCalledTimes(2); // a manual save shows the conflict again
  });

  it("a viewer's editor never saves", async () => {
    const request = vi.spyOn(api, 'saveWorkflow').mockResolvedValue(stored(4));
    const { saver, edit } = open({ readOnly: true });
    edit('Changed');
    await vi.advanceTimersByTimeAsync(5000);
    expect(await saver.save({ manual: true })).toBe(false);
    expect(request).not.toHaveBeenCalled();
  });

  it('edits made just before the tab closes are sent in a request that outlives the page, once', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response('{}'));
    vi.stubGlobal('fetch', fetchMock);
    const request = vi.spyOn(api, 'saveWorkflow').mockResolvedValue(stored(4));
    const { saver, edit } = open();
    edit('Closing');
    expect(saver.saveOnLeave()).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/workflows/wf_save?draft=1');
    expect(init).toMatchObject({ method: 'PUT', keepalive: true });
    expect(JSON.parse(init.body)).toMatchObject({ name: 'Closing', revision: 3 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(request).not.toHaveBeenCalled(); // the scheduled autosave does not send it a second time
    vi.unstubAllGlobals();
  });

  it('nothing is sent on leaving when every edit is stored, after a failed save, or by a viewer', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(api, 'saveWorkflow').mockResolvedValue(stored(4));
    const { saver, edit } = open();
    edit('Saved');
    await vi.advanceTimersByTimeAsync(5000);
    expect(saver.saveOnLeave()).toBe(false);
    const failing = open();
    vi.spyOn(api, 'saveWorkflow').mockRejectedValue(new ApiError(503, 'DB_UNAVAILABLE', 'down'));
    failing.edit('Offline');
    await vi.advanceTimersByTimeAsync(5000);
    expect(failing.store.get().saveStatus).toBe('error');
    expect(failing.saver.saveOnLeave()).toBe(false); // the local draft keeps it; a reload offers it back
    const viewer = open({ readOnly: true });
    viewer.edit('Changed');
    expect(viewer.saver.saveOnLeave()).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
