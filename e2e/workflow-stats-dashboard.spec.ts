/**
 * Guarantees: a workflow's dashboard (`/workflows/:id/stats`, reached from the runs page) shows its runs, success
 * rate and p50 / p95 duration as GET /api/workflows/:id/stats computes them, draws its charts (recharts SVG: bars of
 * runs per day, the success-rate and duration lines, the slowest nodes) and lists the most failing node. A screenshot
 * of the dashboard is kept as a test artifact.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { httpNode, runToEnd } from './support/runs';

test('runs per day, success rate and p50/p95 with their charts', async ({ page, request }, testInfo) => {
  const graph = chain([httpNode('call', '{{inputs.path}}', 'Call service')], {
    inputs: [{ name: 'path' }],
    outputs: [{ name: 'status', value: '{{call.output.status}}' }],
  });
  const id = await createWorkflow(request, `Dashboard ${Date.now().toString(36)}`, graph);
  for (const path of ['/ok', '/ok', '/status/500', '/ok'])
    expect((await runToEnd(request, id, { path })).status).toBe(path === '/ok' ? 'succeeded' : 'failed');

  const stats = await (await request.get(`/api/workflows/${id}/stats`)).json();
  expect(stats.totals).toMatchObject({ runs: 4, succeeded: 3, failed: 1, successRate: 0.75 });
  expect(stats.totals.p50Ms).not.toBeNull();
  expect(stats.totals.p95Ms).toBeGreaterThanOrEqual(stats.totals.p50Ms);
  const today = new Date().toISOString().slice(0, 10);
  expect(stats.perDay.find((d: { day: string }) => d.day === today)).toMatchObject({ runs: 4, succeeded: 3 });

  // From the runs page of this workflow to its dashboard.
  await page.goto(`/runs?workflowId=${id}`);
  await expect(page.getByTestId('runs-row')).toHaveCount(4);
  await page.getByTestId('runs-dashboard-link').click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}/stats$`));
  const dash = page.getByTestId('workflow-stats');

  await expect(dash.getByTestId('stat-runs')).toContainText('4');
  await expect(dash.getByTestId('stat-success')).toContainText('75.0 %');
  for (const stat of ['stat-p50', 'stat-p95']) {
    await expect(dash.getByTestId(stat)).not.toContainText('—');
    await expect(dash.getByTestId(stat)).toContainText(/\d/);
  }

  // Every chart is drawn as an SVG.
  for (const chart of ['chart-runs', 'chart-success', 'chart-duration', 'chart-tokens', 'slowest-nodes'])
    await expect(dash.getByTestId(chart).locator('svg.recharts-surface').first()).toBeVisible();
  // Today's runs are a succeeded bar and a failed bar (stacked).
  const runBars = dash.getByTestId('chart-runs').locator('.recharts-bar-rectangle path, path.recharts-rectangle');
  await expect.poll(() => runBars.count()).toBeGreaterThanOrEqual(2);
  // One line each for p50 and p95, a point for today's success rate.
  await expect(dash.getByTestId('chart-duration').locator('.recharts-line')).toHaveCount(2);
  await expect
    .poll(() => dash.getByTestId('chart-success').locator('.recharts-line-dots circle, circle.recharts-dot').count())
    .toBeGreaterThanOrEqual(1);
  await expect
    .poll(() => dash.getByTestId('slowest-nodes').locator('path.recharts-rectangle').count())
    .toBeGreaterThanOrEqual(1);

  // The most failing node: the HTTP call, failed once.
  const failing = dash.getByTestId('failing-nodes');
  await expect(failing.locator('tbody tr')).toHaveCount(1);
  await expect(failing.locator('tbody tr').first()).toContainText('call');
  await expect(failing.locator('tbody tr').first()).toContainText('1');

  const path = testInfo.outputPath('workflow-stats.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('workflow dashboard', { path, contentType: 'image/png' });
});
