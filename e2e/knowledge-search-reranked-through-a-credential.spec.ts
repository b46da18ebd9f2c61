/**
 * Guarantee: in the knowledge playground, a user picks a credential and a rerank model (offered from the
 * credential's models) and searches: the hits come back in the rerank model's order, each showing its rerank score
 * beside the retrieval's, and the page says which model reranked how many candidates — the browser's part of
 * reranking (acceptance/ proves the API and the knowledge node).
 */
import { expect, test } from '@playwright/test';

test('search a knowledge base with a rerank model picked from a credential', async ({ page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const cred = await request.post('/api/credentials', {
    data: {
      name: `Rerank ${stamp}`,
      type: 'openai',
      data: {
        provider: 'openai_compatible',
        baseUrl: `http://127.0.0.1:${process.env.PAIFLOW_E2E_SLOW_PORT}/v1`,
        apiKey: 'sk-e2e-rerank-0123',
      },
    },
  });
  expect(cred.status()).toBe(201);
  const kb = await (await request.post('/api/knowledge-bases', { data: { name: `Rerank KB ${stamp}` } })).json();
  for (const d of [
    { title: 'Book a room', text: 'Book a room, book a desk, or book a seat for the book club. Book early.' },
    { title: 'Fees for late books', text: 'A late fee applies to each book returned after its due date.' },
    { title: 'Arriving late', text: 'Late arrivals pay no fee for the reading room.' },
  ])
    expect((await request.post(`/api/knowledge-bases/${kb.id}/documents`, { data: d })).status()).toBe(202);

  await page.goto('/knowledge');
  await page
    .getByTestId('kb-item')
    .filter({ hasText: `Rerank KB ${stamp}` })
    .click();
  await expect(page.getByTestId('doc-row').and(page.locator('[data-status="indexed"]'))).toHaveCount(3, {
    timeout: 120_000,
  });

  await page.getByTestId('search-query').fill('late fee book');
  await page.getByTestId('search-rerank-credential').selectOption({ label: `Rerank ${stamp}` });
  const model = page.getByTestId('search-rerank-model');
  // The credential's own model list offers its rerank model (and only rerank models).
  await expect(page.getByTestId('search-rerank-model-options').locator('option')).toHaveAttribute(
    'value',
    'e2e-reranker',
  );
  await model.fill('e2e-reranker');
  await page.getByTestId('search-run').click();

  await expect(page.getByTestId('search-reranked')).toContainText('Reranked by e2e-reranker from 3 candidates');
  await expect(page.getByTestId('search-hit-title')).toHaveText([
    'Fees for late books',
    'Arriving late',
    'Book a room',
  ]);
  await expect(page.getByTestId('search-hit').first()).toContainText('rerank 1.000 · retrieval');
});
