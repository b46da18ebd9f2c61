/**
 * Guarantees: from the workflow list a user reaches the datasets page, uploads a CSV file as a new dataset and sees
 * its rows — inputs, expectation and tags, Chinese text intact; a bad file is refused with the line named and nothing
 * is added; after the rows change (a past run added over the API), the version picker shows the first version's rows
 * again. The page is in Chinese for a Chinese browser.
 */
import { expect, test } from '@playwright/test';
import zh from '../messages/zh-CN/datasets.json';

const CSV = 'question,expected,tags\n"发票怎么开？",在订单页申请,zh\nWhere is my parcel?,In transit,en\n';

test('a CSV becomes a dataset whose rows and versions are shown', async ({ page, request }, testInfo) => {
  const name = `Support cases ${Date.now().toString(36)}`;
  await page.goto('/');
  await page.getByTestId('nav-datasets').click();
  await expect(page).toHaveURL(/\/datasets$/);

  const form = page.getByTestId('dataset-upload');
  await form.getByTestId('dataset-file').setInputFiles({
    name: 'broken.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from('{"inputs":{}}\n{oops'),
  });
  await form.getByTestId('dataset-upload-submit').click();
  await expect(form.getByTestId('dataset-upload-error')).toContainText('line 2');

  await form
    .getByTestId('dataset-file')
    .setInputFiles({ name: 'support.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await form.getByTestId('dataset-name').fill(name);
  await form.getByTestId('dataset-upload-submit').click();
  await expect(page.getByTestId('dataset-title')).toHaveText(name);
  const rows = page.getByTestId('dataset-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('发票怎么开？');
  await expect(rows.first()).toContainText('在订单页申请');
  await expect(rows.first()).toContainText('zh');
  await expect(page.locator(`[data-testid="dataset-item"][data-name="${name}"]`)).toContainText('2 rows · version 1');

  const id = ((await (await request.get('/api/datasets')).json()) as Array<{ id: string; name: string }>).find(
    (d) => d.name === name,
  )!.id;
  const added = await request.post(`/api/datasets/${id}/rows`, {
    data: { rows: [{ inputs: { question: '第三行' } }] },
  });
  expect(added.status()).toBe(200);
  await page.reload();
  await page.locator(`[data-testid="dataset-item"][data-name="${name}"]`).click();
  await expect(rows).toHaveCount(3);
  await page.getByTestId('dataset-version').selectOption('1');
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('dataset-rows.png'), fullPage: true });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the datasets page speaks Chinese', async ({ page }) => {
    await page.goto('/datasets');
    await expect(page.getByTestId('dataset-upload')).toContainText(zh.upload.heading);
    await expect(page.getByTestId('dataset-upload-submit')).toHaveText(zh.upload.submit);
  });
});
