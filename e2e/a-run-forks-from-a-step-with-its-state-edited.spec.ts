/**
 * Guarantee: in the run panel, "Steps" lists a finished run's steps; picking one shows the state after it as JSON,
 * and "Fork from here" with an output edited there opens a new run that reuses the steps up to it and runs the rest
 * with the edit — the browser's part of time travel (acceptance/ proves the API on both engines).
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

test('fork a finished run from step 3 with its output edited in the JSON editor', async ({ page, request }) => {
  const graph = chain(
    [
      { id: 'a', type: 'template', label: 'Draft', config: { template: 'draft', format: 'text' } },
      {
        id: 'b',
        type: 'template',
        label: 'Review',
        config: { template: 'reviewed {{a.output.text}}', format: 'text' },
      },
      {
        id: 'c',
        type: 'template',
        label: 'Publish',
        config: { template: 'published {{b.output.text}}', format: 'text' },
      },
    ],
    { outputs: [{ name: 'post', value: '{{c.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Fork from a step', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const sourceId = await editor.run();
  await editor.expectRunStatus('succeeded');

  await page.getByTestId('run-steps-open').click();
  await expect(page.getByTestId('run-step-3')).toHaveText('3. Review');
  await page.getByTestId('run-step-3').click();
  const state = page.getByTestId('run-step-state');
  expect(JSON.parse(await state.inputValue())).toEqual({
    start: {},
    a: { text: 'draft' },
    b: { text: 'reviewed draft' },
  });
  await state.fill(JSON.stringify({ start: {}, a: { text: 'draft' }, b: { text: 'reviewed, shorter' } }, null, 2));
  await page.getByTestId('fork-run').click();

  await expect(page.getByTestId('trace-panel')).not.toHaveAttribute('data-run-id', sourceId);
  await editor.expectRunStatus('succeeded');
  await expect(page.getByTestId('run-outputs')).toContainText('published reviewed, shorter');
  // The reused steps have rows of their own, never started (attempt 0), saying where their value came from.
  for (const id of ['start', 'a', 'b']) await expect(editor.traceRows(id)).toHaveAttribute('data-attempt', '0');
  await editor.traceRows('b').click();
  await expect(editor.traceRows('b')).toContainText('Edited when forking at “b”');
  const forkId = await page.getByTestId('trace-panel').getAttribute('data-run-id');
  const fork = await getRun(request, forkId!);
  const attempts = Object.fromEntries(
    fork.nodes.map((n: { nodeId: string; attempt: number }) => [n.nodeId, n.attempt]),
  );
  expect(attempts).toEqual({ start: 0, a: 0, b: 0, c: 1, end: 1 });
  expect((await getRun(request, sourceId)).outputs).toEqual({ post: 'published reviewed draft' });
});
