/**
 * Guarantees: in the editor's Publish panel a user sets a publish gate — a 20-row dataset, three scorers (one an LLM
 * judge on a scripted model, e2e/support/slow-server.mjs) and their limits — and from then on publishing a worse draft
 * is refused with what fell short (the draft's scores next to the published version's, rows better and worse), nothing
 * is published, and an owner is offered to publish anyway; the fixed draft then publishes as the next version. The
 * panel says the same in Chinese.
 */
import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import {
  BROKEN_URGENT_WORDS as BROKEN,
  FIXED_URGENT_WORDS as FIXED,
  triageGraph as triage,
  triageRows,
  URGENT_WORDS as URGENT,
} from '../test/support/triage-journey';
import { createWorkflow } from './support/api';
import { e2eEnv } from './support/environment';
import { EditorPage } from './pages/editor.page';
import { PublishPanelPage } from './pages/publish-panel.page';

test.setTimeout(180_000);

async function ok<T>(res: Promise<import('@playwright/test').APIResponse>, status: number): Promise<T> {
  const r = await res;
  expect(r.status(), await r.text()).toBe(status);
  return (await r.json()) as T;
}

async function setUp(request: APIRequestContext) {
  const credential = await ok<{ id: string }>(
    request.post('/api/credentials', {
      data: {
        name: `Judge ${Date.now()}`,
        type: 'openai',
        data: { baseUrl: `${e2eEnv().slowURL}/v1`, apiKey: 'sk-e2e-judge-0001' },
      },
    }),
    201,
  );
  const dataset = await ok<{ id: string; rowCount: number }>(
    request.post('/api/datasets', {
      data: {
        name: `工单分诊 gate ${Date.now()}`,
        rows: triageRows(),
      },
    }),
    201,
  );
  expect(dataset.rowCount).toBe(20);
  const workflowId = await createWorkflow(request, `Gated triage ${Date.now()}`, triage(URGENT));
  await ok(request.post(`/api/workflows/${workflowId}/publish`, { data: {} }), 201);
  return { credentialId: credential.id, datasetId: dataset.id, workflowId };
}

const saveDraft = (request: APIRequestContext, workflowId: string, words: string) =>
  ok(request.put(`/api/workflows/${workflowId}`, { data: { graph: triage(words) } }), 200);

/** A screenshot of the panel, kept in the test's output folder and attached to the report. */
async function shot(panel: Locator, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(name);
  await panel.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function openPublishPanel(page: Page, workflowId: string) {
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const panel = new PublishPanelPage(page);
  await panel.open();
  return panel;
}

test('a publish gate set in the panel refuses a worse draft, then publishes the fix', async ({
  page,
  request,
}, testInfo) => {
  const { credentialId, datasetId, workflowId } = await setUp(request);
  await saveDraft(request, workflowId, BROKEN);

  // The gate, set in the panel's scorer form: the route exactly, the answer containing "Summary" and a judge of the
  // route; the route's mean at least 0.7, the judge's at most 0.1 lower.
  const publish = await openPublishPanel(page, workflowId);
  const section = publish.panel.getByTestId('publish-gate-section');
  await section.getByTestId('publish-gate-edit').click();
  await section.getByTestId('publish-gate-dataset').selectOption(datasetId);
  const scorer = (i: number) => section.getByTestId('scorer').nth(i);
  await scorer(0).getByTestId('scorer-name').fill('route');
  // The first scorer reads the End output the dataset expects (`route`), not the workflow's first (`answer`).
  await expect(scorer(0).getByTestId('scorer-field')).toHaveValue('route');
  await section.getByTestId('publish-gate-add-scorer').click();
  await scorer(1).getByTestId('scorer-type').selectOption('contains');
  await scorer(1).getByTestId('scorer-name').fill('summary');
  await scorer(1).getByTestId('scorer-field').selectOption('answer');
  await scorer(1).getByTestId('scorer-value').fill('Summary');
  await section.getByTestId('publish-gate-add-scorer').click();
  await scorer(2).getByTestId('scorer-type').selectOption('llm_judge');
  await scorer(2).getByTestId('scorer-name').fill('judge');
  await scorer(2).getByTestId('scorer-field').selectOption('route');
  await scorer(2).getByTestId('scorer-rubric').fill('The route is the expected one.');
  await scorer(2).getByTestId('scorer-model').fill('e2e-judge');
  await scorer(2).getByTestId('scorer-credentialId').selectOption(credentialId);
  await section.getByTestId('publish-gate-minMean-route').fill('0.7');
  await section.getByTestId('publish-gate-maxDrop-judge').fill('0.1');
  await shot(publish.panel, testInfo, 'gate-form.png');
  await section.getByTestId('publish-gate-save').click();
  const summary = section.getByTestId('publish-gate-summary');
  await expect(summary).toContainText('route, summary, judge');
  await expect(summary).toContainText('route: mean at least 0.7');
  await expect(summary).toContainText('judge: at most 0.1 below the published version');

  // The broken draft routes every urgent message to "else": 8 of 20 right (0.40), refused, still version 1.
  await publish.panel.getByTestId('publish-submit').click();
  const refusal = publish.panel.getByTestId('publish-gate-refusal');
  await expect(refusal).toBeVisible({ timeout: 120_000 });
  const failures = refusal.getByTestId('publish-gate-failures');
  await expect(failures).toContainText('route: mean 0.40, below the minimum 0.70');
  await expect(failures).toContainText('judge: 0.32 below the published version');
  // The published version (16 of 20 right) next to the draft, and the rows the draft made worse.
  await expect(refusal.getByTestId('publish-gate-score-route')).toContainText('0.80');
  await expect(refusal.getByTestId('publish-gate-score-route')).toContainText('0.40');
  await expect(refusal.getByTestId('publish-gate-counts')).toContainText('8 worse');
  await expect(refusal.getByTestId('publish-force')).toBeVisible(); // the owner may publish anyway
  await shot(publish.panel, testInfo, 'gate-refusal.png');
  const status = await ok<{ version: number }>(request.get(`/api/workflows/${workflowId}/publish`), 200);
  expect(status.version).toBe(1);

  // The fix catches the last four too: 20 of 20 routes, the gate passes and the draft is version 2.
  await saveDraft(request, workflowId, FIXED);
  const again = await openPublishPanel(page, workflowId);
  await again.panel.getByTestId('publish-submit').click();
  await expect(again.panel.getByTestId('publish-version')).toHaveAttribute('data-version', '2', { timeout: 120_000 });
  await expect(again.panel.getByTestId('publish-gate-refusal')).toHaveCount(0);
  // The audit log records the publish that passed the gate, with its evaluation, and no forced publish.
  type Entry = { action: string; target: string | null; data: { version?: number; gateEvaluationId?: string } };
  const audit = (await ok<Entry[]>(request.get('/api/audit?limit=200'), 200)).filter((e) => e.target === workflowId);
  expect(audit.find((e) => e.action === 'workflow.published' && e.data?.version === 2)?.data.gateEvaluationId).toEqual(
    expect.any(String),
  );
  expect(audit.map((e) => e.action)).not.toContain('workflow.publish_forced');

  // The same panel in Chinese.
  await page.context().addCookies([{ name: 'paiflow-locale', value: 'zh-CN', url: page.url() }]);
  const zh = await openPublishPanel(page, workflowId);
  await expect(zh.panel.getByTestId('publish-gate-section')).toContainText('发布门禁');
  await expect(zh.panel.getByTestId('publish-gate-summary')).toContainText('route：平均分至少 0.7');
  await shot(zh.panel, testInfo, 'gate-zh.png');
});
