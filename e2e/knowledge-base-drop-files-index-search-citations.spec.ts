/**
 * Guarantee: on the built app, a user creates a knowledge base in the playground, drops two files on it at once (a
 * PDF in English and a Chinese .txt), watches both index, and searches it — the hits come back with their [n]
 * citations and titles, in English and in Chinese, and the context block an LLM would get cites them the same way.
 */
import { expect, test, type Page } from '@playwright/test';
import { makePdf } from '../test/knowledge/support/make-pdf';

/** Drops files on the element as a user dragging them from the desktop would (dragenter, dragover, drop). */
async function dropFiles(page: Page, testId: string, files: Array<{ name: string; type: string; bytes: number[] }>) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    return dt;
  }, files);
  const zone = page.getByTestId(testId);
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

test('drop two files on a new knowledge base, watch them index, search with citations', async ({ page }) => {
  test.setTimeout(180_000);
  const name = `E2E knowledge ${Date.now()}`;
  await page.goto('/knowledge');
  await page.getByTestId('kb-name').fill(name);
  await page.getByTestId('kb-create').click();
  await expect(page.getByTestId('kb-item').filter({ hasText: name })).toHaveAttribute('class', /bg-indigo-50/);

  const pdf = makePdf([['Invoices are emailed as PDF files on the first day of each month.']]);
  await dropFiles(page, 'doc-drop-zone', [
    { name: 'invoices.pdf', type: 'application/pdf', bytes: [...pdf] },
    {
      name: '退款政策.txt',
      type: 'text/plain',
      bytes: [...new TextEncoder().encode('退款申请审核通过后，款项将在七个工作日内原路退回到您的支付账户。')],
    },
  ]);

  const rows = page.getByTestId('doc-row');
  await expect(rows).toHaveCount(2);
  // Both index (the list is polled while anything is still queued, parsing or embedding).
  await expect(rows.and(page.locator('[data-status="indexed"]'))).toHaveCount(2, { timeout: 120_000 });
  await expect(rows.filter({ hasText: 'invoices' })).toContainText('1 page');
  await expect(rows.filter({ hasText: '退款政策' })).toBeVisible();
  await expect(page.getByTestId('doc-error')).toHaveCount(0);

  await page.getByTestId('search-query').fill('When are invoices emailed?');
  await page.getByTestId('search-run').click();
  const first = page.getByTestId('search-hit').first();
  await expect(first.getByTestId('search-hit-citation')).toHaveText('[1]');
  await expect(first.getByTestId('search-hit-title')).toHaveText('invoices');
  await expect(first).toContainText('first day of each month');
  await expect(page.getByText(/^\[1\] invoices/)).toBeVisible();

  await page.getByTestId('search-query').fill('退款多久到账');
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-hit').first().getByTestId('search-hit-title')).toHaveText('退款政策');
  await expect(page.getByTestId('search-hit').first()).toContainText('七个工作日');
});
