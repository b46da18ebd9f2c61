/**
 * Guarantees, on the production build: the editor's Evaluate tab runs (a copy of) the seeded Support triage example
 * on its seeded dataset with an `exact` scorer on `route`, shows the progress reach all eight rows, the summary
 * (62.5%: three rows fail with the offline demo model) and why a failed row failed; a mistake in a scorer is named
 * before anything is sent, and one only the server finds is shown beside the form; after the draft's urgency test is
 * fixed, a second evaluation compares with the first: the two rows the fix repairs come first, marked better. A
 * finished run is added to a dataset from the trace panel, its outputs as the expectation, and the dataset has one
 * row more. The tab speaks Chinese for a Chinese browser.
 */
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import zh from '../messages/zh-CN/evaluate.json';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';
import { runToEnd } from './support/runs';

const EXAMPLE = 'Support triage (example)';
const CASES = 'Support triage cases (example)';

async function datasetId(request: APIRequestContext, name: string): Promise<string> {
  const list = (await (await request.get('/api/datasets')).json()) as Array<{ id: string; name: string }>;
  return list.find((d) => d.name === name)!.id;
}

async function exampleId(request: APIRequestContext): Promise<string> {
  const list = (await (await request.get('/api/workflows')).json()) as Array<{ id: string; name: string }>;
  return list.find((w) => w.name === EXAMPLE)!.id;
}

/** A copy of the example as a workflow of its own, so that this spec may change its draft. */
async function copyOfExample(request: APIRequestContext): Promise<{ id: string; graph: { nodes: unknown[] } }> {
  const example = await (await request.get(`/api/workflows/${await exampleId(request)}`)).json();
  const res = await request.post('/api/workflows', {
    data: { name: `Triage evaluated ${Date.now()}`, graph: example.graph },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).id, graph: example.graph };
}

/** The graph with the condition's urgency words extended by `more` (the fix the seeded cases call for). */
function withMoreUrgentWords(graph: { nodes: unknown[] }, more: string) {
  const text = JSON.stringify(graph);
  const fixed = text.replace('无法使用', `无法使用|${more}`);
  expect(fixed).not.toBe(text);
  return JSON.parse(fixed);
}

async function openExample(page: Page): Promise<EditorPage> {
  const list = new WorkflowListPage(page);
  await list.goto();
  await list.row(EXAMPLE).getByTestId('open-workflow').click();
  const editor = new EditorPage(page);
  await editor.waitReady();
  return editor;
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Starts the form as it is and waits for the evaluation to end; returns its id. */
async function runEvaluation(page: Page): Promise<string> {
  await page.getByTestId('evaluate-start').click();
  const view = page.getByTestId('evaluation-view');
  await expect(view).toBeVisible();
  const progress = page.getByTestId('evaluation-progress');
  await expect(progress).toHaveAttribute('data-total', '8');
  await expect(progress).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('data-done', '8');
  await expect(page.getByTestId('evaluation-rows-done')).toHaveText('8 of 8 rows done');
  return (await view.getAttribute('data-evaluation-id'))!;
}

test('the Evaluate tab runs the example, explains a failed row and compares two evaluations', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const cases = await datasetId(request, CASES);
  const copy = await copyOfExample(request);
  const editor = new EditorPage(page);
  await editor.goto(copy.id);
  const form = page.getByTestId('evaluate-form');
  const scorer = form.getByTestId('scorer').first();
  /** The Evaluate tab, as tall as it goes, its form set to `exact` on the route. */
  const openForm = async () => {
    await page.getByTestId('tab-evaluate').click();
    await page.getByTestId('bottom-panel-resize').focus();
    await page.keyboard.press('End');
    await expect(form).toBeVisible();
    await form.getByTestId('evaluate-dataset').selectOption(cases);
    await expect(scorer).toHaveAttribute('data-type', 'exact');
    // The default field is the End output the dataset expects: the example's route, not its first output (answer).
    await expect(scorer.getByTestId('scorer-field')).toHaveValue('route');
    await scorer.getByTestId('scorer-name').fill('route');
  };
  await openForm();

  // A mistake is named under its input and nothing starts.
  await form.getByTestId('evaluate-add-scorer').click();
  const second = form.getByTestId('scorer').nth(1);
  await second.getByTestId('scorer-type').selectOption('regex');
  await form.getByTestId('evaluate-start').click();
  await expect(second.getByTestId('scorer-error')).toHaveText('Give a pattern.');
  await expect(page.getByTestId('evaluation-view')).toHaveCount(0);
  // What only the server can tell (a schema that does not compile) is shown beside the form, with its path.
  await second.getByTestId('scorer-type').selectOption('json_schema');
  await second.getByTestId('scorer-schema').fill('{ "type": "nonsense" }');
  await form.getByTestId('evaluate-start').click();
  const refused = form.getByTestId('evaluate-server-error');
  await expect(refused).toContainText('invalid JSON Schema');
  await expect(refused).toContainText('scorers[1].schema');
  await expect(second.getByTestId('scorer-error')).toContainText('"nonsense" is not a type');
  await expect(page.getByTestId('evaluation-view')).toHaveCount(0);
  await shoot(page, testInfo, 'evaluate-form');
  await second.getByTestId('scorer-remove').click();
  await expect(form.getByTestId('scorer')).toHaveCount(1);

  const firstId = await runEvaluation(page);
  const summary = page.locator('[data-testid="summary-scorer"][data-name="route"]');
  await expect(summary.getByTestId('summary-mean')).toHaveText('62.5%');
  await expect(summary.getByTestId('summary-pass-rate')).toContainText('62.5%');
  await expect(page.getByTestId('summary-p50')).not.toHaveText('—');
  await expect(page.getByTestId('evaluation-row')).toHaveCount(8);
  await page.getByTestId('evaluation-only-failed').check();
  const failed = page.getByTestId('evaluation-row');
  await expect(failed).toHaveCount(3);
  await expect(failed.first().getByTestId('row-score')).toHaveAttribute('data-passed', 'false');
  await failed.first().click();
  await expect(failed.first().getByTestId('row-reason')).toContainText('is not "urgent"');
  await shoot(page, testInfo, 'evaluation-finished');

  // A row's run opens in the trace, as the run history opens one.
  await failed.first().getByTestId('evaluation-open-run').click();
  await expect(page.getByTestId('trace-panel')).toHaveAttribute('data-run-status', 'succeeded');
  await page.getByTestId('tab-evaluate').click();
  await expect(page.getByTestId('evaluation-view')).toHaveAttribute('data-evaluation-id', firstId);

  // The draft's urgency test learns "right away" and 「今天必须」: two of the three failed rows pass.
  const fixed = await request.put(`/api/workflows/${copy.id}`, {
    data: { graph: withMoreUrgentWords(copy.graph, 'right away|今天必须') },
  });
  expect(fixed.status(), await fixed.text()).toBe(200);
  await page.reload();
  await editor.waitReady();
  await openForm();
  const secondId = await runEvaluation(page);
  await expect(summary.getByTestId('summary-mean')).toHaveText('87.5%');

  const items = page.getByTestId('evaluation-item');
  // The list beside it hears that both ended.
  for (const id of [firstId, secondId])
    await expect(page.locator(`[data-testid="evaluation-item"][data-evaluation-id="${id}"]`)).toHaveAttribute(
      'data-status',
      'succeeded',
    );
  await expect(items.first()).toHaveAttribute('data-evaluation-id', secondId);
  for (const id of [firstId, secondId])
    await page
      .locator(`[data-testid="evaluation-item"][data-evaluation-id="${id}"]`)
      .getByTestId('evaluation-pick')
      .check();
  await page.getByTestId('evaluate-compare').click();
  const comparison = page.getByTestId('comparison-view');
  const route = comparison.locator('[data-testid="comparison-scorer"][data-name="route"]');
  await expect(route).toContainText('62.5%');
  await expect(route).toContainText('87.5%');
  await expect(route).toContainText('+25 pt');
  await expect(comparison.getByTestId('comparison-counts')).toContainText('2 better · 0 worse · 6 same');
  const rows = comparison.getByTestId('comparison-row');
  await expect(rows).toHaveCount(8);
  for (const i of [0, 1]) await expect(rows.nth(i)).toHaveAttribute('data-change', 'better');
  await expect(rows.nth(0)).toContainText('right away');
  await expect(rows.nth(2)).toHaveAttribute('data-change', 'same');
  await shoot(page, testInfo, 'evaluation-comparison');
});

test('a finished run is added to a dataset from the trace panel, its outputs as the expectation', async ({
  page,
  request,
}, testInfo) => {
  const name = `Triage picks ${Date.now().toString(36)}`;
  const created = await request.post('/api/datasets', {
    data: { name, rows: [{ inputs: { message: 'Hello' }, expected: { route: 'else' } }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const workflowId = await exampleId(request);
  const { runId, status } = await runToEnd(request, workflowId, { message: '网站打不开了，紧急！' });
  expect(status).toBe('succeeded');

  const editor = new EditorPage(page);
  await page.goto(`/workflows/${workflowId}?run=${runId}`);
  await editor.waitReady();
  await expect(page.getByTestId('trace-panel')).toHaveAttribute('data-run-status', 'succeeded');
  await page.getByTestId('add-to-dataset-open').click();
  const box = page.getByTestId('add-to-dataset');
  await box.getByTestId('add-to-dataset-select').selectOption(id);
  await expect(box.getByTestId('add-to-dataset-expect')).toBeChecked();
  await box.getByTestId('add-to-dataset-submit').click();
  await expect(box.getByTestId('add-to-dataset-done')).toContainText(`Added to ${name}: now 2 rows (version 2)`);
  await shoot(page, testInfo, 'add-to-dataset');

  const dataset = await (await request.get(`/api/datasets/${id}`)).json();
  expect(dataset.rowCount).toBe(2);
  const run = await (await request.get(`/api/runs/${runId}`)).json();
  expect(dataset.rows[1]).toMatchObject({ inputs: { message: '网站打不开了，紧急！' }, expected: run.outputs });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the Evaluate tab speaks Chinese', async ({ page, request }, testInfo) => {
    const workflowId = await exampleId(request);
    const res = await request.post(`/api/workflows/${workflowId}/evaluations`, {
      data: {
        datasetId: await datasetId(request, CASES),
        scorers: [{ name: 'route', type: 'exact', field: 'route' }],
      },
    });
    expect(res.status(), await res.text()).toBe(202);
    const { evaluationId } = (await res.json()) as { evaluationId: string };

    await openExample(page);
    await page.getByTestId('tab-evaluate').click();
    await page.getByTestId('bottom-panel-resize').focus();
    await page.keyboard.press('End');
    await expect(page.getByTestId('tab-evaluate')).toHaveText(zh.tab);
    await expect(page.getByTestId('evaluate-start')).toHaveText(zh.form.start);
    await page
      .locator(`[data-testid="evaluation-item"][data-evaluation-id="${evaluationId}"]`)
      .locator('button')
      .click();
    await expect(page.getByTestId('evaluation-progress')).toHaveAttribute('data-status', 'succeeded', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('evaluation-rows-done')).toHaveText('已完成 8 / 8 行');
    await expect(page.getByTestId('evaluation-rows')).toContainText(zh.results.onlyFailed);
    await shoot(page, testInfo, 'evaluate-zh');
  });
});
