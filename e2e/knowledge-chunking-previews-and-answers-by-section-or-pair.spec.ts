/**
 * Guarantee: on the knowledge page, a knowledge base is made with a chunking (parent–child, question–answer pairs),
 * a file's chunks are previewed before upload with the section or answer each returns, and a hit shows what matched
 * apart from what it gives to read — the question above its answer, the small chunk above its section — the
 * browser's part of chunking (acceptance/ proves the API).
 */
import { expect, test } from '@playwright/test';

const sentence = (topic: string, i: number) => `The ${topic} rule number ${i} says what to do about ${topic}.`;
const section = (topic: string) => Array.from({ length: 12 }, (_, i) => sentence(topic, i)).join(' ');
const GUIDE = `# Guide\n\n## Refunds\n\n${section('refund')}\n\n## Shipping\n\n${section('shipping')}\n`;

test('make parent–child and Q&A knowledge bases, preview a file, and read hits by section and by answer', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await page.goto('/knowledge');

  // Parent–child, made in the form.
  await page.getByTestId('kb-name').fill(`Sections ${stamp}`);
  await page.getByTestId('kb-chunking').selectOption('parent-child');
  await page.getByTestId('kb-parent-size').fill('2000');
  await page.getByTestId('kb-create').click();
  await expect(page.locator('h1')).toHaveText(`Sections ${stamp}`);

  // The preview shows the chunks and their sections, and uploads nothing.
  await page.getByTestId('chunk-preview').locator('summary').click();
  const guide = { name: 'guide.md', mimeType: 'text/markdown', buffer: Buffer.from(GUIDE) };
  await page.getByTestId('chunk-preview-file').setInputFiles(guide);
  await expect(page.getByTestId('chunk-preview-summary')).toContainText('guide.md');
  const chunks = page.getByTestId('chunk-preview-chunk');
  expect(await chunks.count()).toBeGreaterThan(2);
  await expect(page.getByTestId('chunk-preview-context').first()).toContainText('rule number');
  await expect(page.getByTestId('doc-row')).toHaveCount(0);

  await page.getByTestId('doc-file').setInputFiles(guide);
  await expect(page.getByTestId('doc-row').and(page.locator('[data-status="indexed"]'))).toHaveCount(1, {
    timeout: 120_000,
  });
  await page.getByTestId('search-query').fill('refund rule');
  await page.getByTestId('search-run').click();
  const first = page.getByTestId('search-hit').first();
  await expect(first.getByTestId('search-hit-matched')).toContainText('refund rule number');
  await expect(first.getByTestId('search-hit-text')).toContainText(sentence('refund', 11));

  // Question–answer pairs from a CSV with Chinese column names.
  await page.getByTestId('kb-name').fill(`问答 ${stamp}`);
  await page.getByTestId('kb-chunking').selectOption('qa');
  await page.getByTestId('kb-create').click();
  await expect(page.locator('h1')).toHaveText(`问答 ${stamp}`);
  const csv = '问题,答案\n退款多久到账？,五个工作日内原路退回。\n可以开发票吗？,可以，在订单页下载。\n';
  await page.getByTestId('doc-file').setInputFiles({ name: 'faq.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('doc-row').and(page.locator('[data-status="indexed"]'))).toHaveCount(1, {
    timeout: 120_000,
  });
  await page.getByTestId('search-query').fill('退款');
  await page.getByTestId('search-run').click();
  const answer = page.getByTestId('search-hit').first();
  await expect(answer.getByTestId('search-hit-question')).toContainText('退款多久到账？');
  await expect(answer.getByTestId('search-hit-text')).toHaveText('五个工作日内原路退回。');
});
