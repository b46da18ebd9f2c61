/**
 * Guarantees: an admin enters an OpenAI-compatible credential's own prices (USD per million input / cached input /
 * output tokens per model) in Settings → Credentials; a bad amount or a missing one is shown under its field and
 * nothing is saved; once fixed, runs whose LLM node uses the credential are priced at those prices: the run panel's
 * header and the runs page show tokens × price. Screenshots of the form's errors and of the priced run are kept.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow } from './support/api';
import { e2eEnv } from './support/environment';
import { demoLlmNode } from './support/runs';

// The local OpenAI-compatible service (e2e/support/slow-server.mjs) answers as `e2e-model` with 5 prompt and 7
// completion tokens.
const PRICE = { input: 1000, output: 2000 };
const EXPECTED_USD = (5 * PRICE.input + 7 * PRICE.output) / 1_000_000; // 0.019

test('prices entered with a credential price the runs that use it', async ({ page, request }, testInfo) => {
  const name = `Priced provider ${Date.now().toString(36)}`;
  await page.goto('/settings/credentials');
  const form = page.getByTestId('credential-create');
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Type').selectOption('openai');
  await form.getByLabel('Base URL').fill(`${e2eEnv().slowURL}/v1`);
  await form.getByLabel('API key').fill('sk-e2e-priced-key-0123456789');

  // A price row with a bad input amount and no output amount: both named under their fields, nothing saved.
  await form.getByTestId('price-add').click();
  const row = form.getByTestId('price-row').first();
  await row.getByTestId('price-model').fill('e2e-model');
  await row.getByTestId('price-input').fill('$1000');
  await form.getByRole('button', { name: 'Add credential' }).click();
  await expect(row.getByTestId('price-problem')).toHaveCount(2);
  await expect(row.getByTestId('price-input')).toHaveAttribute('aria-invalid', 'true');
  await expect(row.getByTestId('price-output')).toHaveAttribute('aria-invalid', 'true');
  await expect(row).toContainText('a number of USD');
  await expect(row).toContainText('required');
  await expect(form.getByTestId('settings-error')).toContainText('prices need fixing');
  let path = testInfo.outputPath('credential-prices-errors.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('credential prices with errors', { path, contentType: 'image/png' });
  const before = (await (await request.get('/api/credentials')).json()) as Array<{ name: string }>;
  expect(before.some((c) => c.name === name)).toBe(false);

  // Typing in a field clears its own problem; fixed, the credential is saved.
  await row.getByTestId('price-input').fill(String(PRICE.input));
  await expect(row.getByTestId('price-problem')).toHaveCount(1);
  await row.getByTestId('price-output').fill(String(PRICE.output));
  await form.getByRole('button', { name: 'Add credential' }).click();
  await expect(page.locator(`[data-testid="credential-row"][data-name="${name}"]`)).toBeVisible();
  await expect(form.getByTestId('price-row')).toHaveCount(0); // the form is reset
  const creds = (await (await request.get('/api/credentials')).json()) as Array<{ id: string; name: string }>;
  const credentialId = creds.find((c) => c.name === name)!.id;

  // A run whose LLM node uses the credential costs tokens × its prices.
  const llm = demoLlmNode('ask', 'Say hello', 'Ask');
  Object.assign(llm.config, { model: 'e2e-model', credentialId });
  const id = await createWorkflow(
    request,
    `Priced ${Date.now().toString(36)}`,
    chain([llm], { outputs: [{ name: 'text', value: '{{ask.output.text}}' }] }),
  );
  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run();
  await editor.expectRunStatus('succeeded');
  const run = await (await request.get(`/api/runs/${runId}`)).json();
  expect(run.usage).toMatchObject({ inputTokens: 5, outputTokens: 7 });
  expect(run.costUsd).toBeCloseTo(EXPECTED_USD, 12);
  await expect(page.getByTestId('run-cost')).toHaveText('5 in / 7 out tok · $0.0190');
  await expect(editor.traceRows('ask')).toContainText('$0.0190');
  path = testInfo.outputPath('priced-run.png');
  await page.screenshot({ path });
  await testInfo.attach('a run priced at the credential’s prices', { path, contentType: 'image/png' });

  await page.goto(`/runs?workflowId=${id}`);
  await expect(page.getByTestId('runs-row')).toHaveCount(1);
  await expect(page.getByTestId('runs-cost')).toHaveText('$0.0190');
});
