/**
 * Guarantees: a viewer's editor cannot change the workflow — the palette is not offered, nodes can be selected to
 * inspect them but not dragged, deleted or pasted, the inspector's fields are disabled, and nothing is ever saved:
 * the editor holds no unsaved version, no PUT leaves the page, no "Save failed" banner appears, and the stored graph
 * keeps its positions. A viewer's workflow list offers only what a viewer may do — open, export, search — and no
 * button that would answer 403.
 */
import { expect, test } from '@playwright/test';
import { joinAs } from './support/accounts';
import { chain, createWorkflow, getWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';

test('a viewer can inspect a workflow but not move, delete or edit its nodes', async ({ browser, request }) => {
  const graph = chain([{ id: 'greet', type: 'template', label: 'Greet', config: { template: 'hi', format: 'text' } }]);
  const workflowId = await createWorkflow(request, 'Viewer looks only', graph);
  const before = await getWorkflow(request, workflowId);

  const viewerPage = await joinAs(browser, request, `viewer-ro-${Date.now()}@example.test`, 'viewer', 'Rita Readonly');
  const writes: string[] = [];
  viewerPage.on('request', (r) => {
    if (r.method() !== 'GET' && /\/api\/workflows\/[^/]+(\?|$)/.test(r.url())) writes.push(`${r.method()} ${r.url()}`);
  });

  const viewer = new EditorPage(viewerPage);
  await viewer.goto(workflowId);
  await expect(viewerPage.getByTestId('read-only-badge')).toHaveText('Read-only (viewer)');
  await expect(viewerPage.getByTestId('palette')).toHaveCount(0);
  for (const id of ['undo', 'redo', 'auto-layout', 'save']) await expect(viewerPage.getByTestId(id)).toBeDisabled();
  await expect(viewerPage.getByTestId('workflow-name-input')).toBeDisabled();

  // Selecting shows the node's configuration, read-only.
  await viewer.select('greet');
  await expect(viewerPage.getByTestId('inspector-read-only')).toBeVisible();
  await expect(viewer.field('label')).toHaveValue('Greet');
  await expect(viewer.field('label')).toBeDisabled();
  await expect(viewer.field('template')).toBeDisabled();
  await expect(viewerPage.getByTestId('delete-node')).toHaveCount(0);

  // Dragging the node does not move it.
  const box = (await viewer.node('greet').getByTestId('node-label').boundingBox())!;
  const m = viewerPage.mouse;
  await m.move(box.x + box.width / 2, box.y + box.height / 2);
  await m.down();
  await m.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 90, { steps: 10 });
  await m.move(box.x + box.width / 2 + 240, box.y + box.height / 2 + 180, { steps: 10 });
  await m.up();
  // (Dragging on a locked node pans the view instead, so its place on screen moves; its place in the graph not.)
  const positions = (g: { nodes: Array<{ id: string; position: unknown }> }) => g.nodes.map((n) => [n.id, n.position]);
  expect(positions(await viewer.graph())).toEqual(positions(before.graph));

  // Nor do Delete, paste or undo change anything.
  await viewerPage.keyboard.press('Delete');
  await viewerPage.keyboard.press('Control+c');
  await viewerPage.keyboard.press('Control+v');
  await viewerPage.keyboard.press('Control+z');
  await expect(viewer.nodes()).toHaveCount(3);
  expect(positions(await viewer.graph())).toEqual(positions(before.graph));

  // Nothing for autosave to store (a viewer's editor schedules none either): no unsaved version, no error banner, no
  // write sent.
  const versions = await viewerPage.evaluate(() => {
    const s = (window as unknown as { __paiflow: { editor: { state: { version: number; savedVersion: number } } } })
      .__paiflow.editor.state;
    return { version: s.version, savedVersion: s.savedVersion };
  });
  expect(versions.version).toBe(versions.savedVersion);
  await expect(viewerPage.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await expect(viewerPage.getByTestId('save-error-banner')).toHaveCount(0);
  await expect(viewerPage.getByText('Save failed')).toHaveCount(0);
  expect(writes).toEqual([]);

  // The owner reads the same graph and revision as before.
  const stored = await getWorkflow(request, workflowId);
  expect(stored.revision).toBe(before.revision);
  expect(positions(stored.graph)).toEqual(positions(before.graph));

  await viewerPage.context().close();
});

test('a viewer’s workflow list offers opening, exporting and searching, and nothing that would be refused', async ({
  browser,
  page,
  request,
}) => {
  const name = `Viewer lists ${Date.now()}`;
  const graph = chain([{ id: 'greet', type: 'template', config: { template: 'hi', format: 'text' } }]);
  const workflowId = await createWorkflow(request, name, graph);
  const viewerPage = await joinAs(browser, request, `viewer-list-${Date.now()}@example.test`, 'viewer', 'Lena Lister');
  const refused: string[] = [];
  viewerPage.on('response', (r) => {
    if (r.status() === 403) refused.push(`${r.request().method()} ${r.url()}`);
  });

  const list = new WorkflowListPage(viewerPage);
  await list.goto();
  await expect(viewerPage.getByTestId('list-read-only-badge')).toHaveText('Read-only (viewer)');
  for (const id of ['new-workflow', 'import-workflow', 'import-file'])
    await expect(viewerPage.getByTestId(id), id).toHaveCount(0);
  await list.search(name);
  const row = list.row(name);
  await expect(row).toHaveAttribute('data-workflow-id', workflowId);
  await expect(row.getByTestId('open-workflow')).toBeVisible();
  await expect(row.getByTestId('export-workflow')).toBeVisible();
  for (const id of ['rename-workflow', 'duplicate-workflow', 'delete-workflow'])
    await expect(row.getByTestId(id), id).toHaveCount(0);
  await expect(viewerPage.getByTestId('toast')).toHaveCount(0);
  expect(refused).toEqual([]);

  // The owner's list still offers all of it.
  const owner = new WorkflowListPage(page);
  await owner.goto();
  await expect(page.getByTestId('list-read-only-badge')).toHaveCount(0);
  await expect(page.getByTestId('new-workflow')).toBeVisible();
  await expect(owner.row(name).getByTestId('delete-workflow')).toBeVisible();

  await viewerPage.context().close();
});
