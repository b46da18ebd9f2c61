/**
 * Guarantees: "Run" on a workflow whose Start declares no inputs starts the run at once — no form with nothing to
 * fill ever opens — and still saves unsaved edits first, so the run is of what the canvas shows; once the Start
 * declares an input, "Run" asks for it in the form again.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

test('Run starts at once when the Start declares no inputs, and asks when it declares one', async ({
  page,
  request,
}) => {
  const graph = chain([{ id: 'greet', type: 'template', label: 'Greet', config: { template: 'hi', format: 'text' } }]);
  const workflowId = await createWorkflow(request, `Nothing to ask ${Date.now()}`, graph);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);

  // Remember whether the form ever appears, however briefly.
  await page.evaluate(() => {
    const w = window as unknown as { runDialogSeen: boolean };
    w.runDialogSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="run-dialog"]')) w.runDialogSeen = true;
    }).observe(document.body, { childList: true, subtree: true });
  });

  // An unsaved edit is saved before the run starts.
  await editor.select('greet');
  await editor.field('template').fill('hello at once');
  await page.getByTestId('run').click();
  const panel = page.getByTestId('trace-panel');
  await expect(panel).toHaveAttribute('data-run-id', /^run_/);
  await editor.expectRunStatus('succeeded');
  const runId = (await panel.getAttribute('data-run-id'))!;
  const run = await getRun(request, runId);
  expect(run.inputs).toEqual({});
  expect(run.nodes.find((n: { nodeId: string }) => n.nodeId === 'greet').output.text).toBe('hello at once');
  expect(await page.evaluate(() => (window as unknown as { runDialogSeen: boolean }).runDialogSeen)).toBe(false);

  // With a declared input, the form asks for it.
  await editor.select('start');
  await editor.inspector.getByTestId('add-row').click();
  await editor.field('inputs[0].name').fill('who');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-dialog')).toBeVisible();
  await expect(page.getByTestId('run-input-who')).toBeVisible();
});
