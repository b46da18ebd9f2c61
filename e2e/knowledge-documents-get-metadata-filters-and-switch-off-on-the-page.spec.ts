/**
 * Guarantee: on the knowledge page, a document's metadata shows as chips and is edited as JSON in its row (a typing
 * mistake is explained, nothing saved), the search's filter field keeps only matching documents, and a document
 * switched off in its row stays listed but drops out of the hits — the browser's part of metadata filters
 * (acceptance/ proves the API and the knowledge node).
 */
import { expect, test } from '@playwright/test';

test('edit a document’s metadata, filter a search on it, and switch a document off', async ({ page, request }) => {
  test.setTimeout(180_000);
  const name = `Metadata page ${Date.now().toString(36)}`;
  const kb = await (await request.post('/api/knowledge-bases', { data: { name } })).json();
  for (const d of [
    { title: 'Refunds (English)', text: 'Refund requests are answered within five days.', metadata: { lang: 'en' } },
    { title: '退款说明', text: 'Refund requests: 退款申请在五天内答复。' },
  ])
    expect((await request.post(`/api/knowledge-bases/${kb.id}/documents`, { data: d })).status()).toBe(202);

  await page.goto('/knowledge');
  await page.getByTestId('kb-item').filter({ hasText: name }).click();
  const rows = page.getByTestId('doc-row');
  await expect(rows.and(page.locator('[data-status="indexed"]'))).toHaveCount(2, { timeout: 120_000 });
  const english = rows.filter({ hasText: 'Refunds (English)' });
  const chinese = rows.filter({ hasText: '退款说明' });
  await expect(english.getByTestId('doc-metadata')).toHaveText(['lang: en']);

  // Metadata edited in the row: a mistake is explained and nothing is saved; then saved.
  await chinese.getByTestId('doc-metadata-edit').click();
  await chinese.getByTestId('doc-metadata-input').fill('{"lang": zh}');
  await chinese.getByTestId('doc-metadata-save').click();
  await expect(chinese.getByTestId('doc-metadata-problem')).toBeVisible();
  await chinese.getByTestId('doc-metadata-input').fill('{"lang": "zh", "year": 2026}');
  await chinese.getByTestId('doc-metadata-save').click();
  await expect(chinese.getByTestId('doc-metadata')).toHaveText(['lang: zh', 'year: 2026']);

  const titles = page.getByTestId('search-hit-title');
  await page.getByTestId('search-query').fill('refund requests');
  await page.getByTestId('search-filter').fill('{"lang": "zh"}');
  await page.getByTestId('search-run').click();
  await expect(titles).toHaveText(['退款说明']);
  await page.getByTestId('search-filter').fill('');
  await page.getByTestId('search-run').click();
  await expect(titles).toHaveCount(2);

  // Switched off: still listed, out of the hits.
  await chinese.getByTestId('doc-enabled').click(); // saved at once; the box follows the stored state
  await expect(chinese).toHaveAttribute('data-enabled', 'false');
  await page.getByTestId('search-run').click();
  await expect(titles).toHaveText(['Refunds (English)']);
});
