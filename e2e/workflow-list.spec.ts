/**
 * Guarantees: the home page lists the seeded example and can create, rename, duplicate, export (download),
 * import (file) and delete (after confirming) workflows.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { WorkflowListPage } from './pages/workflow-list.page';

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
  await expect(page.getByTestId('empty-canvas')).toBeVisible();
});
