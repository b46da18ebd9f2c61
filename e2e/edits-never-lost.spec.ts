/**
 * Guarantees (issue 22, "edits never lost"): when the workflow was saved elsewhere while you edited, the conflict
 * dialog lists what each side changed, by node; "Keep mine" saves over theirs only after a second click that says
 * what of theirs it overwrites; "Take theirs" loads theirs and drops yours (Undo brings yours back); "Merge" keeps
 * edits of different nodes from both sides — and, for a node both changed, the side picked for it — shows the
 * result on the canvas and saves it on the server's revision. Unsaved edits survive a reload in local storage until
 * they are saved or discarded, and a draft made on a revision the server has moved past goes through the same
 * conflict flow. Screenshots of the dialog and of the restored-draft banner are kept as test artifacts.
 *
 * "Another tab" is a second page of the same browser context (so it shares local storage, as tabs do) or an API PUT
 * with the revision it read, which is what a save from another tab sends.
 */
import { expect, test, type APIRequestContext, type Page, type Route, type TestInfo } from '@playwright/test';
import { ConflictDialogPage } from './pages/conflict-dialog.page';
import { EditorPage, type Graph } from './pages/editor.page';
import { chain, createWorkflow, getWorkflow } from './support/api';

function flow() {
  return chain([
    { id: 'a', type: 'template', label: 'Draft A', config: { template: 'a', format: 'text' } },
    { id: 'b', type: 'template', label: 'Draft B', config: { template: 'b={{a.output.text}}', format: 'text' } },
  ]);
}

async function newWorkflow(request: APIRequestContext, what: string): Promise<string> {
  return createWorkflow(request, `${what} ${Date.now().toString(36)}`, flow());
}

const labelOf = (graph: Graph, id: string) => graph.nodes.find((n) => n.id === id)?.data.label;

function relabel(graph: Graph, labels: Record<string, string>): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => (labels[n.id] ? { ...n, data: { ...n.data, label: labels[n.id] } } : n)),
  };
}

/** A save from another tab: PUT with the revision it read. Returns the new revision. */
async function saveElsewhere(
  request: APIRequestContext,
  id: string,
  change: { labels?: Record<string, string>; name?: string },
): Promise<number> {
  const wf = await getWorkflow(request, id);
  const res = await request.put(`/api/workflows/${id}?draft=1`, {
    data: { name: change.name, graph: relabel(wf.graph, change.labels ?? {}), revision: wf.revision },
  });
  expect(res.status(), await res.text()).toBe(200);
  const saved = await res.json();
  expect(saved.revision).toBe(wf.revision + 1);
  return saved.revision;
}

/** Edits a node's label in the inspector; autosave stores it a moment later (or meets the conflict). */
async function editLabel(editor: EditorPage, id: string, label: string) {
  await editor.select(id);
  await editor.field('label').fill(label);
}

const canvasLabel = (editor: EditorPage, id: string) => editor.node(id).getByTestId('node-label');

/** The drafts this browser keeps for `workflowId` (components/editor/local-draft.ts). */
async function drafts(page: Page, workflowId: string): Promise<Array<{ revision: number; mine: { graph: Graph } }>> {
  return page.evaluate(
    (wid) =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('paiflow.draft.') && k.endsWith(`:${wid}`))
        .map((k) => JSON.parse(localStorage.getItem(k)!)),
    workflowId,
  );
}

async function draftLabel(page: Page, workflowId: string, nodeId: string): Promise<unknown> {
  const list = await drafts(page, workflowId);
  return list.length ? labelOf(list[0].mine.graph, nodeId) : null;
}

/** Makes this page's saves of `workflowId` fail as if offline; reads (GET) and validation still pass. */
async function blockSaves(page: Page, workflowId: string): Promise<() => Promise<void>> {
  const match = (url: URL) => url.pathname === `/api/workflows/${workflowId}`;
  const handler = (route: Route) =>
    route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue();
  await page.route(match, handler);
  return () => page.unroute(match, handler);
}

async function shot(page: Page, testInfo: TestInfo, name: string, title: string) {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(title, { path, contentType: 'image/png' });
}

test('keep mine saves over theirs, but only after showing what of theirs it overwrites', async ({
  page,
  request,
}, testInfo) => {
  const id = await newWorkflow(request, 'Keep mine');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  await editor.goto(id);
  const theirs = await saveElsewhere(request, id, { labels: { a: 'Theirs A' } });

  await editLabel(editor, 'a', 'Mine A');
  await dialog.waitOpen();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'conflict');
  await expect(dialog.change('mine', 'changed', 'a')).toHaveText('Changed “Mine A” (a)');
  await expect(dialog.change('theirs', 'changed', 'a')).toHaveText('Changed “Theirs A” (a)');
  // Both changed node a: it is listed as a clash, and Merge waits for a pick.
  await expect(dialog.clashes()).toHaveCount(1);
  await expect(dialog.clash('node:a')).toContainText('you changed it, they changed it');
  await expect(dialog.merge).toBeDisabled();
  await expect(dialog.mergeBlocked).toHaveText('Pick Mine or Theirs for 1 clashing item to merge.');

  // The first click only says what would be overwritten; nothing is saved yet.
  await dialog.keepMine.click();
  await expect(dialog.keepMineWarning).toContainText('the 1 change listed under “Their changes” will be overwritten');
  expect(labelOf((await getWorkflow(request, id)).graph, 'a')).toBe('Theirs A');
  await shot(page, testInfo, 'keep-mine-confirm.png', 'keep mine: what of theirs it overwrites');

  await dialog.keepMineConfirm.click();
  await expect(dialog.root).toBeHidden();
  await editor.waitSaved();
  const stored = await getWorkflow(request, id);
  expect(stored.revision).toBe(theirs + 1); // saved on top of their revision, not refused again
  expect(labelOf(stored.graph, 'a')).toBe('Mine A');
  await expect(canvasLabel(editor, 'a')).toHaveText('Mine A');
  await expect(page.getByTestId('conflict-banner')).toBeHidden();
  expect(await drafts(page, id)).toEqual([]);
});

test('take theirs loads their version and drops mine; Undo brings mine back', async ({ page, request }) => {
  const id = await newWorkflow(request, 'Take theirs');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  await editor.goto(id);
  const theirs = await saveElsewhere(request, id, { labels: { a: 'Theirs A' }, name: 'Renamed elsewhere' });

  await editLabel(editor, 'a', 'Mine A');
  await dialog.waitOpen();
  await expect(dialog.change('theirs', 'field', 'name')).toHaveText(/Renamed the workflow “.*” → “Renamed elsewhere”/);
  await dialog.takeTheirs.click();
  await expect(dialog.root).toBeHidden();
  await expect(canvasLabel(editor, 'a')).toHaveText('Theirs A');
  await expect(page.getByTestId('editor-workflow-name')).toHaveText('Renamed elsewhere');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  const stored = await getWorkflow(request, id);
  expect(stored.revision).toBe(theirs); // nothing was saved over theirs
  expect(labelOf(stored.graph, 'a')).toBe('Theirs A');
  expect(await drafts(page, id)).toEqual([]);

  // Dropped, not destroyed: one Undo puts my edit back (as an unsaved change, which autosave then stores).
  await page.getByTestId('undo').click();
  await expect(canvasLabel(editor, 'a')).toHaveText('Mine A');
  await editor.waitSaved();
  expect(labelOf((await getWorkflow(request, id)).graph, 'a')).toBe('Mine A');
});

test('merge keeps my edit of one node and the other tab’s edit of another, and saves on their revision', async ({
  page,
  request,
}, testInfo) => {
  const id = await newWorkflow(request, 'Merge');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  await editor.goto(id);

  // A second tab of the same browser edits node b and autosaves it.
  const other = await page.context().newPage();
  const otherEditor = new EditorPage(other);
  await otherEditor.goto(id);
  await editLabel(otherEditor, 'b', 'Theirs B');
  await expect.poll(async () => labelOf((await getWorkflow(request, id)).graph, 'b')).toBe('Theirs B');
  await otherEditor.waitSaved();
  const theirs = (await getWorkflow(request, id)).revision;

  // This tab, still on the older revision, edits node a.
  await page.bringToFront();
  await editLabel(editor, 'a', 'Mine A');
  await dialog.waitOpen();
  await expect(dialog.change('mine', 'changed', 'a')).toHaveText('Changed “Mine A” (a)');
  await expect(dialog.change('theirs', 'changed', 'b')).toHaveText('Changed “Theirs B” (b)');
  await expect(dialog.changes('mine')).toHaveAttribute('data-count', '1');
  await expect(dialog.changes('theirs')).toHaveAttribute('data-count', '1');
  await expect(dialog.clashes()).toHaveCount(0);
  await expect(dialog.merge).toBeEnabled();
  await shot(page, testInfo, 'merge-dialog.png', 'conflict dialog: edits of different nodes');

  await dialog.merge.click();
  await expect(dialog.root).toBeHidden();
  // The merge is on the canvas and stored, on top of the other tab's revision.
  await expect(canvasLabel(editor, 'a')).toHaveText('Mine A');
  await expect(canvasLabel(editor, 'b')).toHaveText('Theirs B');
  await editor.waitSaved();
  const stored = await getWorkflow(request, id);
  expect(stored.revision).toBe(theirs + 1);
  expect([labelOf(stored.graph, 'a'), labelOf(stored.graph, 'b')]).toEqual(['Mine A', 'Theirs B']);
  expect(stored.graph.edges).toHaveLength(3);
  expect(await drafts(page, id)).toEqual([]);
  await shot(page, testInfo, 'merged-canvas.png', 'the merged graph on the canvas');
  await other.close();
});

test('a node both changed is merged with the side picked for it', async ({ page, request }) => {
  const id = await newWorkflow(request, 'Merge with picks');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  await editor.goto(id);
  await saveElsewhere(request, id, { labels: { a: 'Theirs A', b: 'Theirs B' } });

  await editLabel(editor, 'a', 'Mine A');
  await dialog.waitOpen();
  await expect(dialog.clashes()).toHaveCount(1);
  await expect(dialog.merge).toBeDisabled();
  await dialog.clash('node:a').getByTestId('clash-mine').click();
  await expect(dialog.clash('node:a').getByTestId('clash-mine')).toHaveAttribute('aria-pressed', 'true');
  await expect(dialog.mergeBlocked).toBeHidden();
  await dialog.merge.click();
  await expect(dialog.root).toBeHidden();
  await editor.waitSaved();
  const stored = await getWorkflow(request, id);
  expect([labelOf(stored.graph, 'a'), labelOf(stored.graph, 'b')]).toEqual(['Mine A', 'Theirs B']);
  await expect(canvasLabel(editor, 'a')).toHaveText('Mine A');
  await expect(canvasLabel(editor, 'b')).toHaveText('Theirs B');
});

test('unsaved edits survive a reload in local storage until they are discarded or saved', async ({
  page,
  request,
}, testInfo) => {
  const id = await newWorkflow(request, 'Draft');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  // The editor asks "leave this page?" while edits are unsaved: the user says yes.
  page.on('dialog', (d) => void d.accept());
  await editor.goto(id);
  const unblock = await blockSaves(page, id);

  await editLabel(editor, 'a', 'Offline A');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect.poll(() => draftLabel(page, id, 'a')).toBe('Offline A');
  await page.reload();
  await editor.waitReady();
  await expect(dialog.draftBanner).toContainText('Restored unsaved changes from');
  await expect(canvasLabel(editor, 'a')).toHaveText('Offline A');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'dirty');
  expect(labelOf((await getWorkflow(request, id)).graph, 'a')).toBe('Draft A'); // only in this browser
  await shot(page, testInfo, 'restored-draft.png', 'restored draft banner after a reload');

  // Discard: the stored version is back and the draft is gone, also after the next reload.
  await page.getByTestId('draft-discard').click();
  await expect(dialog.draftBanner).toBeHidden();
  await expect(canvasLabel(editor, 'a')).toHaveText('Draft A');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  expect(await drafts(page, id)).toEqual([]);
  await page.reload();
  await editor.waitReady();
  await expect(canvasLabel(editor, 'a')).toHaveText('Draft A');
  await expect(dialog.draftBanner).toHaveCount(0);

  // Another draft, restored and then saved: on the server, and gone from local storage.
  await editLabel(editor, 'b', 'Offline B');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect.poll(() => draftLabel(page, id, 'b')).toBe('Offline B');
  await page.reload();
  await editor.waitReady();
  await expect(dialog.draftBanner).toBeVisible();
  await expect(canvasLabel(editor, 'b')).toHaveText('Offline B');
  await unblock();
  await page.getByTestId('save').click();
  await editor.waitSaved();
  await expect(dialog.draftBanner).toBeHidden();
  expect(labelOf((await getWorkflow(request, id)).graph, 'b')).toBe('Offline B');
  expect(await drafts(page, id)).toEqual([]);
  await page.reload();
  await editor.waitReady();
  await expect(canvasLabel(editor, 'b')).toHaveText('Offline B');
  await expect(dialog.draftBanner).toHaveCount(0);
});

test('a draft left on a revision the server has moved past goes through the conflict flow', async ({
  page,
  request,
}) => {
  const id = await newWorkflow(request, 'Draft conflict');
  const editor = new EditorPage(page);
  const dialog = new ConflictDialogPage(page);
  page.on('dialog', (d) => void d.accept());
  await editor.goto(id);
  const unblock = await blockSaves(page, id);
  await editLabel(editor, 'a', 'Offline A');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect.poll(() => draftLabel(page, id, 'a')).toBe('Offline A');
  const theirs = await saveElsewhere(request, id, { labels: { b: 'Theirs B' } });
  await unblock();

  await page.reload();
  await editor.waitReady();
  await dialog.waitOpen();
  await expect(dialog.draftBanner).toContainText('Restored unsaved changes from');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'conflict');
  await expect(dialog.change('mine', 'changed', 'a')).toHaveText('Changed “Offline A” (a)');
  await expect(dialog.change('theirs', 'changed', 'b')).toHaveText('Changed “Theirs B” (b)');
  await expect(dialog.clashes()).toHaveCount(0);
  await dialog.merge.click();
  await expect(dialog.root).toBeHidden();
  await editor.waitSaved();
  const stored = await getWorkflow(request, id);
  expect(stored.revision).toBe(theirs + 1);
  expect([labelOf(stored.graph, 'a'), labelOf(stored.graph, 'b')]).toEqual(['Offline A', 'Theirs B']);
  await expect(dialog.draftBanner).toBeHidden();
  expect(await drafts(page, id)).toEqual([]);
});
