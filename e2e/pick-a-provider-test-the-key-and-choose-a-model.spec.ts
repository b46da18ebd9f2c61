/**
 * Guarantees: adding an OpenAI-compatible credential starts from a provider tile (Chinese providers named in
 * Chinese on a Chinese page); "Test" asks the provider and says how many models the key can use; an LLM node
 * using the credential offers the provider's models in its model input while any other name can still be typed;
 * a new knowledge base offers the same credential's models for embedding.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow } from './support/api';
import { e2eEnv } from './support/environment';

// e2e/support/slow-server.mjs lists three models at GET /v1/models: two chat models and an embedding model.
const CHAT_MODELS = ['e2e-model', 'e2e-model-large'];

test('a credential made from a provider tile is tested and feeds the model inputs', async ({
  page,
  request,
}, testInfo) => {
  const name = `Local vLLM ${Date.now().toString(36)}`;
  await page.goto('/settings/credentials');
  const form = page.getByTestId('credential-create');
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Type').selectOption('openai');
  await expect(form.getByTestId('provider-deepseek')).toContainText('DeepSeek');
  await form.getByTestId('provider-openai_compatible').click();
  await expect(form.getByTestId('provider-openai_compatible')).toHaveAttribute('aria-checked', 'true');
  await form.getByLabel('Base URL').fill(`${e2eEnv().slowURL}/v1`);
  await form.getByLabel('API key').fill('sk-e2e-provider-key-0123456789');
  await form.getByRole('button', { name: 'Add credential' }).click();

  const row = page.locator(`[data-testid="credential-row"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Test ${name}` }).click();
  await expect(row.getByTestId('credential-test-result')).toContainText(/Works \(\d+ ms\) · 4 models/);
  await page.screenshot({ path: testInfo.outputPath('credential-tested.png'), fullPage: true });

  const credential = (
    (await (await request.get('/api/credentials')).json()) as Array<{ id: string; name: string }>
  ).find((c) => c.name === name)!;
  const id = await createWorkflow(
    request,
    `E2E model picker ${Date.now().toString(36)}`,
    chain([{ id: 'l1', type: 'llm', label: 'Answer', config: { userPrompt: 'Hi', credentialId: credential.id } }]),
  );
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.select('l1');
  const options = editor.inspector.getByTestId('field-model-options').locator('option');
  // An LLM node is offered the chat models only.
  await expect(options).toHaveCount(2);
  expect(await options.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(CHAT_MODELS);
  await expect(editor.inspector.getByTestId('field-model-source')).toContainText('2 models from the provider');
  await editor.field('model').fill('e2e-model-large');
  await expect
    .poll(async () => (await editor.graph()).nodes.find((n) => n.id === 'l1')!.data.config)
    .toMatchObject({
      model: 'e2e-model-large',
    });
  // A model the provider does not list can still be typed.
  await editor.field('model').fill('my-fine-tune-v2');
  await expect
    .poll(async () => (await editor.graph()).nodes.find((n) => n.id === 'l1')!.data.config)
    .toMatchObject({
      model: 'my-fine-tune-v2',
    });
  await page.screenshot({ path: testInfo.outputPath('model-suggestions.png'), fullPage: true });

  await page.goto('/knowledge');
  await page.getByTestId('kb-embedding-credential').selectOption(credential.id);
  // A knowledge base is offered the embedding model only.
  const embeddingOptions = page.getByTestId('kb-embedding-model-options').locator('option');
  await expect(embeddingOptions).toHaveCount(1);
  await expect(embeddingOptions).toHaveAttribute('value', 'e2e-embed-small');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the provider tiles name Chinese providers in Chinese', async ({ page }, testInfo) => {
    await page.goto('/settings/credentials');
    const form = page.getByTestId('credential-create');
    await form.locator('select').first().selectOption('openai');
    await expect(form.getByTestId('provider-qwen')).toContainText('通义千问');
    await expect(form.getByTestId('provider-moonshot')).toContainText('月之暗面');
    await page.screenshot({ path: testInfo.outputPath('providers-zh.png'), fullPage: true });
  });
});
