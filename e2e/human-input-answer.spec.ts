/**
 * Guarantees: a run that reaches a human-input node shows as waiting, with an answer box shaped by the node's
 * answer type; answering continues the same run to its end.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

test('a waiting run is answered from the trace panel and finishes', async ({ page, request }) => {
  const graph = chain(
    [
      {
        id: 'approve',
        type: 'human_input',
        label: 'Approve?',
        config: { prompt: 'Ship {{inputs.item}}?', answerType: 'boolean' },
      },
    ],
    { inputs: [{ name: 'item' }], outputs: [{ name: 'approved', value: '{{approve.output.answer}}' }] },
  );
  const id = await createWorkflow(request, 'Human approval', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const runId = await editor.run({ item: 'v1.2' });
  await editor.expectRunStatus('waiting');
  await expect(editor.node('approve')).toHaveAttribute('data-status', 'waiting');
  await expect(page.getByTestId('answer-prompt')).toHaveText('Ship v1.2?');
  await page.getByTestId('answer-yes').click();
  await editor.expectRunStatus('succeeded');
  await expect(editor.node('approve')).toHaveAttribute('data-status', 'succeeded');
  await expect(editor.node('end')).toHaveAttribute('data-status', 'succeeded');
  expect((await getRun(request, runId)).outputs).toEqual({ approved: true });
});
