/**
 * Guarantees: the workspace's runs page (`/runs`) lists runs newest first with their cost; the workflow and status
 * filters narrow the list to exactly those runs (and live in the URL); a small page size (`?limit=`) pages with
 * "Load more" until every run was shown once; a row opens the editor with that run on the canvas, its header showing
 * the run's tokens and cost. A screenshot of the filtered list is kept as a test artifact.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow } from './support/api';
import { demoLlmNode, httpNode, runToEnd } from './support/runs';

test('filter by workflow and status, page with a small page size, open a run in the editor', async ({
  page,
  request,
}, testInfo) => {
  const tag = Date.now().toString(36);
  const good = await createWorkflow(
    request,
    `Runs view ok ${tag}`,
    chain([demoLlmNode('ask', 'Say hello to {{inputs.who}}', 'Ask')], {
      inputs: [{ name: 'who' }],
      outputs: [{ name: 'text', value: '{{ask.output.text}}' }],
    }),
  );
  const bad = await createWorkflow(request, `Runs view failing ${tag}`, chain([httpNode('call', '/status/500')]));
  const goodRuns: string[] = [];
  for (const who of ['Ann', 'Bo', 'Cy', 'Di', 'Ed']) {
    const r = await runToEnd(request, good, { who });
    expect(r.status).toBe('succeeded');
    goodRuns.unshift(r.runId); // newest first
  }
  const failed = await runToEnd(request, bad);
  expect(failed.status).toBe('failed');

  // One workflow, two runs a page: Load more until all five were shown, each once, newest first.
  await page.goto(`/runs?workflowId=${good}&limit=2`);
  const rows = page.getByTestId('runs-row');
  await expect(rows).toHaveCount(2);
  const more = page.getByTestId('runs-load-more');
  await more.click();
  await expect(rows).toHaveCount(4);
  await more.click();
  await expect(rows).toHaveCount(5);
  await expect(more).toBeHidden();
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))).toEqual(goodRuns);
  await expect(page.getByTestId('runs-count')).toHaveText('5 runs shown');
  // The demo model's runs cost $0 (a known price, not "unknown").
  for (const cell of await page.getByTestId('runs-cost').all()) await expect(cell).toHaveText('$0');

  // The status filter, from the bar: none of this workflow's runs failed.
  await page.getByTestId('filter-status').selectOption('failed');
  await expect(page).toHaveURL(/status=failed/);
  await expect(page).toHaveURL(/limit=2/); // the page size stays
  await expect(page.getByTestId('runs-empty')).toBeVisible();

  // Another workflow, from the bar: exactly its one failed run.
  await page.getByTestId('filter-workflow').selectOption(bad);
  await expect(page).toHaveURL(new RegExp(`workflowId=${bad}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-run-id', failed.runId);
  await expect(rows.first()).toContainText('failed');
  await expect(rows.first()).toContainText('500');
  await page.getByTestId('filter-status').selectOption('succeeded');
  await expect(page.getByTestId('runs-empty')).toBeVisible();
  await page.getByTestId('filter-status').selectOption('');
  await expect(rows).toHaveCount(1);

  // Back to the first workflow, succeeded runs only.
  await page.getByTestId('filter-workflow').selectOption(good);
  await page.getByTestId('filter-status').selectOption('succeeded');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-run-id', goodRuns[0]);
  const path = testInfo.outputPath('runs-view.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('runs view, filtered and paged', { path, contentType: 'image/png' });

  // A row opens its run in the workflow's editor.
  const target = goodRuns[1];
  await rows
    .and(page.locator(`[data-run-id="${target}"]`))
    .getByRole('link')
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${good}\\?run=${target}`));
  const editor = new EditorPage(page);
  await editor.waitReady();
  const panel = page.getByTestId('trace-panel');
  await expect(panel).toHaveAttribute('data-run-id', target);
  await editor.expectRunStatus('succeeded');
  await expect(editor.traceRows('ask')).toHaveAttribute('data-status', 'succeeded');
  const run = await (await request.get(`/api/runs/${target}`)).json();
  expect(run.inputs).toEqual({ who: 'Di' });
  // The header states the run's own total: the demo model's tokens at $0.
  const cost = page.getByTestId('run-cost');
  await expect(cost).toHaveText(`${run.usage.inputTokens} in / ${run.usage.outputTokens} out tok · $0`);
  await expect(cost).toHaveAttribute('data-cost-usd', '0');
});

test('a single-node run is labelled with its node and shows the input the node ran with', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const id = await createWorkflow(
    request,
    `Runs view one node ${tag}`,
    chain(
      [{ id: 'greet', type: 'template', label: 'Greet', config: { template: 'Hi {{inputs.who}}', format: 'text' } }],
      {
        inputs: [{ name: 'who' }],
      },
    ),
  );
  const whole = await runToEnd(request, id, { who: 'Ann' });
  expect(whole.status).toBe('succeeded');
  const res = await request.post(`/api/workflows/${id}/nodes/greet/run`, {
    data: { input: { template: 'Edited by hand', format: 'text' } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const single = (await res.json()).runId as string;

  await page.goto(`/runs?workflowId=${id}`);
  const rows = page.getByTestId('runs-row');
  await expect(rows).toHaveCount(2);
  const one = rows.and(page.locator(`[data-run-id="${single}"]`));
  await expect(one.getByTestId('runs-single-node')).toHaveText('Single node: Greet');
  await expect(one.getByTestId('runs-inputs')).toContainText('"template": "Edited by hand"');
  await expect(one.getByTestId('runs-inputs')).not.toContainText('Ann');
  // The run of the whole workflow has no badge and shows its start inputs.
  const full = rows.and(page.locator(`[data-run-id="${whole.runId}"]`));
  await expect(full.getByTestId('runs-single-node')).toHaveCount(0);
  await expect(full.getByTestId('runs-inputs')).toHaveText('"who": "Ann"');
});
