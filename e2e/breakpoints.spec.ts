/**
 * Guarantees: a test run from the editor pauses before a node marked with a breakpoint and shows its resolved input;
 * Step pauses before the next node too, an edited input is what that node runs with, and Continue finishes the run.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow, getEvents } from './support/api';

test('a breakpoint pauses the run; Step, an edited input and Continue behave', async ({ page, request }) => {
  const graph = chain(
    [
      { id: 't1', type: 'template', label: 'First', config: { format: 'text', template: 'one' } },
      { id: 't2', type: 'template', label: 'Second', config: { format: 'text', template: 'two' } },
    ],
    { outputs: [{ name: 'second', value: '{{t2.output.text}}' }] },
  );
  (graph.nodes[1].data as Record<string, unknown>).breakpoint = true;
  const id = await createWorkflow(request, 'E2E breakpoints', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);

  const runId = await editor.run();
  await editor.expectRunStatus('waiting');
  const box = page.getByTestId('breakpoint-box');
  await expect(box).toHaveAttribute('data-node', 't1');
  await expect(box.getByTestId('breakpoint-title')).toContainText('First');
  await expect(box.getByTestId('breakpoint-input')).toHaveValue(/"template": "one"/);

  await box.getByTestId('bp-step').click();
  await expect(page.getByTestId('breakpoint-box')).toHaveAttribute('data-node', 't2');
  const second = page.getByTestId('breakpoint-box');
  await second.getByTestId('breakpoint-input').fill('{ "format": "text", "template": "edited by hand" }');
  await second.getByTestId('bp-continue').click();
  await editor.expectRunStatus('succeeded');

  const events = await getEvents(request, runId);
  expect(events.filter((e) => e.type === 'run.waiting').map((e) => e.data.nodeId)).toEqual(['t1', 't2']);
  expect(events.find((e) => e.type === 'run.succeeded')?.data.outputs).toEqual({ second: 'edited by hand' });
});
