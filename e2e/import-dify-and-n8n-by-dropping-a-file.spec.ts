/**
 * Guarantees: dropping a Dify DSL export (.yml) or an n8n workflow (.json) on the workflow list imports it — the
 * format is read from the file — and shows the import report: how many nodes were mapped, approximated and dropped,
 * each with its reason in the reader's language; "Open workflow" opens the new workflow in the editor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import zhList from '../messages/zh-CN/workflowList.json';
import { EditorPage, type Graph, type PaiflowWindow } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../test/fixtures/import', name), 'utf8');

/** Drags a file onto the workflow list and drops it, as a file manager would. */
async function dropFile(page: Page, name: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name));
      return dt;
    },
    { name, text },
  );
  const target = page.getByTestId('workflow-list-page');
  await target.dispatchEvent('dragover', { dataTransfer });
  await expect(page.getByTestId('import-drop-zone')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer });
}

test('a dropped Dify export is imported, its report shown, and it opens in the editor', async ({ page }, testInfo) => {
  const list = new WorkflowListPage(page);
  await list.goto();
  await dropFile(page, 'article-helper.yml', fixture('dify-workflow-article-helper.yml'));
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('Imported “Article helper” from Dify');
  await expect(page.getByTestId('import-report-summary')).toHaveText('14 mapped, 0 approximated, 0 dropped.');
  await expect(report.getByTestId('import-entry')).toHaveCount(14);
  await expect(page.getByTestId('import-mapped')).toContainText('A Question classifier node with the same classes');
  const shot = testInfo.outputPath('import-report.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('import report', { path: shot, contentType: 'image/png' });
  await page.getByTestId('open-imported').click();
  await page.waitForURL(/\/workflows\/wf_/);
  const editor = new EditorPage(page);
  await editor.waitReady();
  // Zoomed out to fit 15 nodes the canvas draws an overview, not cards: the graph is read from the editor itself.
  const ids = await page.evaluate(() =>
    ((window as unknown as PaiflowWindow).__paiflow!.graph() as Graph).nodes.map((n) => n.id),
  );
  expect(ids).toEqual(expect.arrayContaining(['start', 'format_points', 'classify_topic', 'end']));
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a dropped n8n export shows its report in Chinese', async ({ page }) => {
    const zh = zhList.importReport;
    const list = new WorkflowListPage(page);
    await list.goto();
    await dropFile(page, 'article-helper.json', fixture('n8n-article-helper.json'));
    await expect(page.getByTestId('import-report')).toContainText(
      zh.title.replace('{format}', 'n8n').replace('{name}', 'Article helper (n8n)'),
    );
    // Nothing of it is dropped: the sticky note's text went to the description, the chat memory is the history.
    await expect(page.getByTestId('import-dropped')).toHaveCount(0);
    await expect(page.getByTestId('import-mapped')).toContainText('画布上的便签');
    await expect(page.getByTestId('import-approximated')).toContainText('对话历史');
    await page.getByTestId('import-report').getByText(zh.close, { exact: true }).click();
    await expect(list.row('Article helper (n8n)')).toBeVisible();
  });
});
