/**
 * Guarantees: a run in progress is shown live (the running node is marked while it works), the live view catches
 * up after its event stream drops — every seq applied exactly once — and screenshots of the editor and of a run in
 * progress are kept as test artifacts.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { EditorPage, type PaiflowWindow } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';
import { startTcpProxy } from './support/tcp-proxy';

const SLOW = () => `http://127.0.0.1:${process.env.PAIFLOW_E2E_SLOW_PORT}`;

/** A URL the e2e service holds until `release(key)`: the node calling it stays running until then. */
const holdUrl = (key: string) => `${SLOW()}/hold?key=${key}`;

async function release(key: string) {
  const res = await fetch(`${SLOW()}/release?key=${key}`);
  expect(await res.json()).toEqual({ released: 1 });
}

test('screenshot of the editor with the seeded example', async ({ page }, testInfo) => {
  const list = new WorkflowListPage(page);
  await list.goto();
  await list.row('Support triage (example)').getByTestId('open-workflow').click();
  const editor = new EditorPage(page);
  await editor.waitReady();
  await expect(editor.nodes()).toHaveCount(6);
  await editor.select('route');
  const path = testInfo.outputPath('editor.png');
  await page.screenshot({ path });
  await testInfo.attach('editor', { path, contentType: 'image/png' });
});

test('a slow run is shown live, survives a dropped event stream, and is screenshotted in progress', async ({
  page,
  request,
}, testInfo) => {
  const key = `live-${Date.now().toString(36)}`;
  const graph = chain(
    [
      {
        id: 'summarize',
        type: 'llm',
        label: 'Summarize',
        config: {
          model: 'gpt-4o-mini',
          systemPrompt: '',
          userPrompt: 'Summarise: {{inputs.topic}}',
          temperature: 0.2,
          jsonMode: false,
          stream: true,
          provider: {},
        },
      },
      {
        id: 'fetch',
        type: 'http',
        label: 'Fetch slowly',
        config: {
          method: 'GET',
          url: holdUrl(key),
          headers: [],
          bodyType: 'none',
          body: '',
          timeoutMs: 120_000, // held until released
          continueOnError: false,
        },
      },
      {
        id: 'report',
        type: 'template',
        label: 'Report',
        config: { template: '{{summarize.output.text}} / held {{fetch.output.body.held}}', format: 'text' },
      },
    ],
    { inputs: [{ name: 'topic' }], outputs: [{ name: 'report', value: '{{report.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Slow run', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.run({ topic: 'PaiFlow live view' });

  await expect(editor.node('fetch')).toHaveAttribute('data-status', 'running');
  await expect(editor.node('summarize')).toHaveAttribute('data-status', 'succeeded');
  await expect(editor.traceRows('fetch')).toHaveAttribute('data-status', 'running');
  const path = testInfo.outputPath('run-in-progress.png');
  await page.screenshot({ path });
  await testInfo.attach('run in progress', { path, contentType: 'image/png' });

  // Drop the event stream mid-run; the view reconnects from its last seq and misses nothing.
  expect(await page.evaluate(() => (window as unknown as PaiflowWindow).__paiflow!.runController.simulateDrop())).toBe(
    true,
  );
  await release(key);
  await editor.expectRunStatus('succeeded');
  for (const n of ['start', 'summarize', 'fetch', 'report', 'end'])
    await expect(editor.node(n)).toHaveAttribute('data-status', 'succeeded');
  await expect(editor.traceRows('report').getByTestId('trace-preview')).toContainText(`held ${key}`);
  const seqs = await page.evaluate(() => (window as unknown as PaiflowWindow).__paiflow!.runs.state.seqs);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));

  const done = testInfo.outputPath('run-finished.png');
  await page.screenshot({ path: done });
  await testInfo.attach('run finished', { path: done, contentType: 'image/png' });
});

test("after a network drop the browser's EventSource reconnects with Last-Event-ID and catches up", async ({
  page,
  request,
}) => {
  const key = `drop-${Date.now().toString(36)}`;
  const graph = chain(
    [
      {
        id: 'fetch',
        type: 'http',
        label: 'Fetch slowly',
        config: {
          method: 'GET',
          url: holdUrl(key),
          headers: [],
          bodyType: 'none',
          body: '',
          timeoutMs: 120_000, // held until released
          continueOnError: false,
        },
      },
      {
        id: 'after',
        type: 'template',
        label: 'After',
        config: { template: 'done with {{fetch.output.status}}', format: 'text' },
      },
    ],
    { outputs: [{ name: 'result', value: '{{after.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Dropped stream', graph);
  const proxy = await startTcpProxy(Number(process.env.PAIFLOW_E2E_PORT));
  try {
    const editor = new EditorPage(page);
    await page.goto(`http://127.0.0.1:${proxy.port}/workflows/${id}`);
    await editor.waitReady();
    const runId = await editor.run();
    await expect(editor.node('fetch')).toHaveAttribute('data-status', 'running');
    // Cut the event stream mid-run; the server never sees a clean close.
    expect(proxy.cut(new RegExp(`^GET /api/runs/${runId}/events`))).toBe(1);
    await release(key);
    await editor.expectRunStatus('succeeded');
    const reconnect = proxy.requests.filter((r) => r.startsWith(`GET /api/runs/${runId}/events `))[1];
    expect(reconnect, 'the browser reconnected').toBeTruthy();
    expect(reconnect).toMatch(/\r\nlast-event-id: \d+\r\n/i);
    const seqs = await page.evaluate(() => (window as unknown as PaiflowWindow).__paiflow!.runs.state.seqs);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    for (const n of ['start', 'fetch', 'after', 'end'])
      await expect(editor.node(n)).toHaveAttribute('data-status', 'succeeded');
  } finally {
    await proxy.close();
  }
});

test('Cancel stops a running run and marks the in-flight node cancelled', async ({ page, request }) => {
  const graph = chain([
    {
      id: 'fetch',
      type: 'http',
      label: 'Fetch slowly',
      config: {
        method: 'GET',
        url: holdUrl(`cancel-${Date.now().toString(36)}`), // never released: Cancel ends it
        headers: [],
        bodyType: 'none',
        body: '',
        timeoutMs: 120_000,
        continueOnError: false,
      },
    },
  ]);
  const id = await createWorkflow(request, 'Cancel me', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run();
  await expect(editor.node('fetch')).toHaveAttribute('data-status', 'running');
  await page.getByTestId('cancel-run').click();
  await editor.expectRunStatus('cancelled', 10_000);
  await expect(editor.node('fetch')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('resume-run')).toBeVisible();
  expect((await (await request.get(`/api/runs/${runId}`)).json()).status).toBe('cancelled');
});
