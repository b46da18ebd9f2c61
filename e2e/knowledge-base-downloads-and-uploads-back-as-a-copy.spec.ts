/**
 * Guarantee: on the knowledge page, "Export" downloads the knowledge base as a file and the import field makes a
 * copy from it — selected, its documents indexed and searchable — the browser's part of export and import
 * (acceptance/ proves the file and the API).
 */
import { expect, test } from '@playwright/test';

test('export a knowledge base from its page and import the file back as a copy', async ({ page, request }) => {
  test.setTimeout(180_000);
  const name = `Export page ${Date.now().toString(36)}`;
  const kb = await (await request.post('/api/knowledge-bases', { data: { name } })).json();
  const doc = { title: '退款说明', text: 'Refunds: 退款会在五个工作日内原路退回。', metadata: { lang: 'zh' } };
  expect((await request.post(`/api/knowledge-bases/${kb.id}/documents`, { data: doc })).status()).toBe(202);

  await page.goto('/knowledge');
  await page.getByTestId('kb-item').filter({ hasText: name }).click();
  await expect(page.getByTestId('doc-row').and(page.locator('[data-status="indexed"]'))).toHaveCount(1, {
    timeout: 120_000,
  });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('kb-export').click()]);
  expect(download.suggestedFilename()).toMatch(/\.paiflow-kb\.jsonl$/);
  const file = await download.path();

  const before = await page.getByTestId('kb-item').filter({ hasText: name }).count();
  await page.getByTestId('kb-import').setInputFiles(file);
  await expect(page.getByTestId('kb-item').filter({ hasText: name })).toHaveCount(before + 1);
  await expect(page.locator('h1')).toHaveText(name);
  const rows = page.getByTestId('doc-row');
  await expect(rows.and(page.locator('[data-status="indexed"]'))).toHaveCount(1, { timeout: 120_000 });
  await expect(rows.getByTestId('doc-metadata')).toHaveText(['lang: zh']);
  await page.getByTestId('search-query').fill('退款');
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-hit-title')).toHaveText(['退款说明']);
});
