/**
 * Guarantees: the run view's Timeline tab draws one bar per span the run's trace events imply (nodes, skipped nodes,
 * retry attempts …), each labelled by what it is; clicking a bar selects that node on the canvas; zoom and fit work;
 * a screenshot of the timeline is kept as a test artifact.
 */
import { expect, test, type Page } from '@playwright/test';
import { chain, createWorkflow, getEvents, getRun, type TraceEventLite } from './support/api';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';
import { MAX_PX_PER_MS } from '../components/editor/run/timeline-scale';

type Ev = TraceEventLite & { spanId: string };

/** The bars the timeline should draw for these events, by kind (the same rules as timeline-model.ts). */
function expectedBars(events: Ev[]) {
  const count = { node: 0, attempt: 0, child: 0, wait: 0 };
  const childSpans = new Set<string>();
  const retries = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'node.started' || e.type === 'node.skipped') count.node++;
    else if (e.type === 'run.waiting') count.wait++;
    else if (e.type === 'node.progress' && e.data.retry) retries.set(e.spanId, (retries.get(e.spanId) ?? 0) + 1);
    else if (e.type === 'agent.step' || e.type.startsWith('tool.')) childSpans.add(e.spanId);
    else if (e.type === 'retrieval.hits') childSpans.add(`${e.spanId}:${e.seq}`);
  }
  for (const n of retries.values()) count.attempt += n + 1;
  count.child = childSpans.size;
  return { ...count, total: count.node + count.attempt + count.child + count.wait };
}

async function openTimeline(page: Page, runId: string) {
  await page.getByTestId('tab-timeline').click();
  const panel = page.getByTestId('timeline-panel');
  await expect(panel).toHaveAttribute('data-run-id', runId);
  return panel;
}

test('the timeline of the seeded example: one bar per span, a click selects the node, zoom and fit', async ({
  page,
  request,
}, testInfo) => {
  const list = new WorkflowListPage(page);
  await list.goto();
  await list.row('Support triage (example)').getByTestId('open-workflow').click();
  const editor = new EditorPage(page);
  await editor.waitReady();
  const runId = await editor.run({ message: 'The app crashes at checkout and I was charged twice. URGENT!' });
  await editor.expectRunStatus('succeeded');

  const panel = await openTimeline(page, runId);
  const events = (await getEvents(request, runId)) as Ev[];
  const want = expectedBars(events);
  const run = await getRun(request, runId);
  expect(want.node).toBe(run.nodes.length); // one node bar per executed (or skipped) node
  await expect(panel).toHaveAttribute('data-bar-count', String(want.total));
  const bars = panel.getByTestId('timeline-bar');
  await expect(bars).toHaveCount(want.total); // every row is in view for a run this small
  await expect(bars.and(page.locator('[data-kind="node"]'))).toHaveCount(want.node);
  const skipped = run.nodes.filter((n: { status: string }) => n.status === 'skipped');
  for (const n of skipped)
    await expect(bars.and(page.locator(`[data-node-id="${n.nodeId}"]`))).toHaveAttribute('data-status', 'skipped');

  // A bar opens its details and selects its node on the canvas.
  const summarize = bars.and(page.locator('[data-node-id="summarize"]'));
  await summarize.hover();
  await expect(page.getByTestId('timeline-tooltip')).toContainText('Node');
  await summarize.click();
  await expect(page.getByTestId('inspector-node-id')).toHaveText('summarize');
  await expect(page.locator('.react-flow__node.selected').getByTestId('workflow-node')).toHaveAttribute(
    'data-node-id',
    'summarize',
  );
  const detail = page.getByTestId('timeline-detail');
  await expect(detail).toContainText('Summarize');
  await expect(detail.getByTestId('timeline-fact-duration')).not.toBeEmpty();

  const route = bars.and(page.locator('[data-node-id="route"]'));
  await route.click();
  await expect(page.getByTestId('inspector-node-id')).toHaveText('route');

  // Zoom in (×1.6 per click, around the middle, up to the closest zoom), then Fit shows the whole run again, as it
  // was. A run of the offline example can take 20 ms or 200 (its last bar may be a third of it), so nothing here
  // depends on which bars a zoom pushes out of view.
  const endBar = bars.and(page.locator('[data-node-id="end"]'));
  const zoom = async () => Number(await panel.getAttribute('data-px-per-ms'));
  const fitted = await zoom();
  const before = (await summarize.boundingBox())!;
  await page.getByTestId('timeline-zoom-in').click();
  await page.getByTestId('timeline-zoom-in').click();
  await expect.poll(zoom).toBeCloseTo(Math.min(MAX_PX_PER_MS, fitted * 2.56), 3);
  await page.getByTestId('timeline-fit').click();
  await expect.poll(zoom).toBeCloseTo(fitted, 5);
  expect(Math.round((await summarize.boundingBox())!.x)).toBe(Math.round(before.x));
  await expect(endBar).toBeInViewport();

  const path = testInfo.outputPath('run-timeline.png');
  await page.screenshot({ path });
  await testInfo.attach('run timeline', { path, contentType: 'image/png' });
});

test('retries are attempt bars inside their node, not extra nodes', async ({ page, request }, testInfo) => {
  const graph = chain([
    {
      id: 'flaky',
      type: 'http',
      label: 'Flaky service',
      config: {
        method: 'GET',
        url: `http://127.0.0.1:${process.env.PAIFLOW_E2E_SLOW_PORT}/status/503`,
        headers: [],
        bodyType: 'none',
        body: '',
        timeoutMs: 5000,
        continueOnError: false,
      },
    },
  ]);
  const flaky = graph.nodes.find((n) => n.id === 'flaky')!;
  (flaky.data as Record<string, unknown>).retry = { maxAttempts: 3, backoffMs: 150, backoffMultiplier: 2 };
  const id = await createWorkflow(request, 'Timeline retries', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run();
  await editor.expectRunStatus('failed');

  const panel = await openTimeline(page, runId);
  const want = expectedBars((await getEvents(request, runId)) as Ev[]);
  expect(want.attempt).toBe(3);
  await expect(panel).toHaveAttribute('data-bar-count', String(want.total));
  const attempts = panel.getByTestId('timeline-row').and(page.locator('[data-kind="attempt"]'));
  await expect(attempts).toHaveCount(3);
  await expect(attempts.nth(0)).toContainText('attempt 1');
  await expect(attempts.nth(1)).toContainText('retry · attempt 2');
  await expect(attempts.nth(2)).toHaveAttribute('data-status', 'failed');
  await expect(
    panel.getByTestId('timeline-row').and(page.locator('[data-kind="node"][data-node-id="flaky"]')),
  ).toHaveCount(1);

  // Folding the node hides its attempts.
  await panel
    .getByTestId('timeline-row')
    .and(page.locator('[data-node-id="flaky"][data-kind="node"]'))
    .getByTestId('timeline-toggle')
    .click();
  await expect(attempts).toHaveCount(0);
  await panel.getByTestId('timeline-expand-all').click();
  await expect(attempts).toHaveCount(3);

  await attempts.nth(1).getByTestId('timeline-bar').click();
  await expect(page.getByTestId('inspector-node-id')).toHaveText('flaky');
  await expect(page.getByTestId('timeline-detail')).toContainText('backoff');
  const path = testInfo.outputPath('run-timeline-retries.png');
  await page.screenshot({ path });
  await testInfo.attach('run timeline with retries', { path, contentType: 'image/png' });
});
