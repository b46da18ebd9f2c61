/**
 * Guarantees: the home page lists the seeded example and can create, rename, duplicate, export (download),
 * import (file) and delete (after confirming) workflows. A blank workflow opens as a Start joined to an End with no
 * problem, under a name no other workflow has. The list finds workflows by name or description and shows how and
 * when each last ran (or that it never ran), linking to that run.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';
import { chain, createWorkflow, getWorkflow } from './support/api';
import { runToEnd } from './support/runs';

test('list, rename, duplicate, export, import and delete workflows', async ({ page }) => {
  const list = new WorkflowListPage(page);
  await list.goto();
  await expect(list.row('Support triage (example)')).toBeVisible();

  await list.duplicate('Support triage (example)');
  await list.rename('Support triage (example) (copy)', 'Triage copy');

  const download = page.waitForEvent('download');
  await list.row('Triage copy').getByTestId('export-workflow').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Triage-copy.paiflow.json');
  const exported = JSON.parse(readFileSync((await file.path())!, 'utf8'));
  expect(exported).toMatchObject({ format: 'paiflow.workflow', formatVersion: 2, workflow: { name: 'Triage copy' } });
  expect(exported.workflow.graph.nodes).toHaveLength(6);

  exported.workflow.name = 'Imported triage';
  await list.importFile({
    name: 'triage.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported)),
  });
  await expect(list.row('Imported triage')).toBeVisible();
  await expect(list.row('Imported triage')).toContainText('6 nodes');

  await list.importFile({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
  await expect(page.getByTestId('toast').last()).toContainText('Import failed');

  await list.delete('Imported triage');
  await list.delete('Triage copy');
  await expect(list.row('Support triage (example)')).toBeVisible();

  const id = await list.createNew();
  expect(id).toMatch(/^wf_/);
});

test('a blank workflow is a Start joined to an End, under a name of its own', async ({ page, request }) => {
  const list = new WorkflowListPage(page);
  await list.goto();
  const first = await list.createNew();
  const editor = new EditorPage(page);
  await editor.waitReady();
  await expect(page.getByTestId('empty-canvas')).toHaveCount(0);
  expect(await editor.nodeIds()).toEqual(['start', 'end']);
  await expect(editor.edges()).toHaveCount(1);
  await expect(editor.problemCount()).toHaveAttribute('data-count', '0');

  await list.goto();
  const second = await list.createNew();
  const names = [(await getWorkflow(request, first)).name, (await getWorkflow(request, second)).name];
  for (const name of names) expect(name).toMatch(/^Untitled workflow( \(\d+\))?$/);
  expect(names[0]).not.toBe(names[1]);
  await list.goto();
  for (const name of names) await expect(list.row(name)).toHaveCount(1);
});

test('the list finds workflows by name or description and says how each last ran', async ({ page, request }) => {
  const tag = `${Date.now()}`;
  const graph = chain([{ id: 'greet', type: 'template', config: { template: 'hi', format: 'text' } }]);
  const ran = `Findable ran ${tag}`;
  const never = `Findable never ${tag}`;
  const ranId = await createWorkflow(request, ran, graph);
  await createWorkflow(request, never, graph);
  const described = await request.post('/api/workflows', {
    data: { name: `Quiet one ${tag}`, description: `mentions findable ${tag} only here`, graph },
  });
  expect(described.status()).toBe(201);
  const { runId } = await runToEnd(request, ranId);

  const list = new WorkflowListPage(page);
  await list.goto();
  const last = list.row(ran).getByTestId('last-run');
  await expect(last.getByTestId('last-run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(last).toContainText('just now');
  await expect(list.row(never).getByTestId('last-run')).toHaveText('Never run');

  await list.search(`FINDABLE ran ${tag}`);
  await expect(list.rows()).toHaveCount(1);
  await expect(list.row(ran)).toBeVisible();
  await list.search(`findable ${tag}`);
  await expect(list.rows()).toHaveCount(1);
  await expect(list.row(`Quiet one ${tag}`)).toBeVisible();
  await list.search(`Findable`);
  await expect(list.row(never)).toBeVisible();
  await expect(list.row(ran)).toBeVisible();
  await list.search(`no such workflow ${tag}`);
  await expect(page.getByTestId('no-matches')).toContainText(`no such workflow ${tag}`);
  await expect(list.rows()).toHaveCount(0);
  await list.search('');
  await expect(list.row('Support triage (example)')).toBeVisible();

  // The last run opens in the editor.
  await list.row(ran).getByTestId('last-run').click();
  await page.waitForURL(`**/workflows/${ranId}?run=${runId}`);
  await expect(page.getByTestId('trace-panel')).toHaveAttribute('data-run-id', runId);
});
