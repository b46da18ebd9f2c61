/**
 * Guarantees: when an HTTP node fails (a blocked address), fixing its config in the inspector and pressing Resume
 * re-runs only the failed node and its descendants — the nodes that succeeded keep their single attempt — and a
 * past run opened from the history is painted back onto the canvas.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getEvents, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

test('resume after fixing a failed HTTP node re-runs only it and its descendants', async ({ page, request }) => {
  const okUrl = `http://127.0.0.1:${process.env.PAIFLOW_E2E_SLOW_PORT}/ok`;
  const graph = chain(
    [
      { id: 'prep', type: 'template', label: 'Prepare', config: { template: 'q={{inputs.q}}', format: 'text' } },
      {
        id: 'call',
        type: 'http',
        label: 'Call API',
        config: {
          method: 'GET',
          url: 'http://169.254.169.254/latest/meta-data/',
          headers: [],
          bodyType: 'none',
          body: '',
          timeoutMs: 5000,
          continueOnError: false,
        },
      },
      {
        id: 'shape',
        type: 'template',
        label: 'Shape',
        config: { template: 'status {{call.output.status}}', format: 'text' },
      },
    ],
    { inputs: [{ name: 'q' }], outputs: [{ name: 'result', value: '{{shape.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Resume after a failed HTTP call', graph);

  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run({ q: 'hello' });
  await editor.expectRunStatus('failed');
  await expect(editor.node('call')).toHaveAttribute('data-status', 'failed');
  await expect(editor.node('call').getByTestId('node-error')).toContainText('Blocked request to 169.254.169.254');
  await expect(editor.traceRows('call').getByTestId('trace-error')).toContainText('SSRF_BLOCKED');
  for (const ok of ['start', 'prep']) await expect(editor.node(ok)).toHaveAttribute('data-status', 'succeeded');
  for (const never of ['shape', 'end']) await expect(editor.node(never)).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('resume-run')).toContainText('from call');

  // Fix the URL in the inspector; Resume saves the draft first (runs and resumes execute the stored draft).
  await editor.select('call');
  await editor.field('url').fill(okUrl);
  await page.getByTestId('resume-run').click();
  await editor.expectRunStatus('succeeded');
  for (const n of ['start', 'prep', 'call', 'shape', 'end'])
    await expect(editor.node(n)).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('trace-marker')).toContainText('Resumed');
  await expect(editor.traceRows('call')).toHaveCount(2);
  await expect(editor.traceRows('shape').getByTestId('trace-preview')).toHaveText('status 200');

  const run = await getRun(request, runId);
  expect(run.status).toBe('succeeded');
  expect(run.outputs).toEqual({ result: 'status 200' });
  const attempts = Object.fromEntries(run.nodes.map((n: { nodeId: string; attempt: number }) => [n.nodeId, n.attempt]));
  expect(attempts).toEqual({ start: 1, prep: 1, call: 2, shape: 1, end: 1 });

  const events = await getEvents(request, runId);
  const starts = (nodeId: string) => events.filter((e) => e.type === 'node.started' && e.nodeId === nodeId).length;
  expect({
    start: starts('start'),
    prep: starts('prep'),
    call: starts('call'),
    shape: starts('shape'),
    end: starts('end'),
  }).toEqual({ start: 1, prep: 1, call: 2, shape: 1, end: 1 });
  const resumed = events.filter((e) => e.type === 'run.started')[1];
  expect(resumed.data).toMatchObject({ resumed: true, reused: expect.arrayContaining(['start', 'prep']) });
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

  // History: after a reload the canvas is clean; opening the run paints it again.
  await page.reload();
  await editor.waitReady();
  await expect(editor.node('call')).toHaveAttribute('data-status', 'idle');
  await editor.openTab('runs');
  await page.locator(`[data-testid="run-history-row"][data-run-id="${runId}"]`).click();
  await editor.expectRunStatus('succeeded');
  for (const n of ['start', 'prep', 'call', 'shape', 'end'])
    await expect(editor.node(n)).toHaveAttribute('data-status', 'succeeded');
  await expect(editor.traceRows('call').last()).toHaveAttribute('data-attempt', '2');
});

test('"Resume from here" re-runs the selected node and what follows it', async ({ page, request }) => {
  const graph = chain(
    [
      { id: 'a', type: 'template', label: 'A', config: { template: 'a', format: 'text' } },
      { id: 'b', type: 'template', label: 'B', config: { template: 'b from {{a.output.text}}', format: 'text' } },
    ],
    { outputs: [{ name: 'b', value: '{{b.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Resume from here', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run();
  await editor.expectRunStatus('succeeded');
  await editor.select('b');
  await editor.field('template').fill('b again from {{a.output.text}}');
  await page.getByTestId('resume-from-here').click();
  await expect(editor.traceRows('b')).toHaveCount(2);
  await editor.expectRunStatus('succeeded');
  await expect(editor.traceRows('b').last().getByTestId('trace-preview')).toHaveText('b again from a');
  const run = await getRun(request, runId);
  const attempts = Object.fromEntries(run.nodes.map((n: { nodeId: string; attempt: number }) => [n.nodeId, n.attempt]));
  expect(attempts).toEqual({ start: 1, a: 1, b: 2, end: 2 });
});
