/**
 * Guarantees: a refused connection (into the start node, a self-loop, a duplicate) says why in a toast and adds
 * no edge; an invalid config shows inline under its field, as a badge on the node and in the problems panel
 * (which selects the node); the draft with its problem is stored, so a reload loses nothing.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

test('invalid connections and configs are explained, and nothing is lost on reload', async ({ page, request }) => {
  const graph = chain(
    [
      {
        id: 'ask',
        type: 'llm',
        label: 'Ask',
        config: {
          model: 'gpt-4o-mini',
          systemPrompt: '',
          userPrompt: '{{inputs.q}}',
          temperature: 0.7,
          jsonMode: false,
          stream: true,
          provider: {},
        },
      },
    ],
    { inputs: [{ name: 'q' }], outputs: [{ name: 'answer', value: '{{ask.output.text}}' }] },
  );
  const id = await createWorkflow(request, 'Invalid edits', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.problemCount()).toHaveAttribute('data-count', '0');

  await editor.connect('ask', editor.node('start').getByTestId('node-label'));
  await expect(editor.toasts().last()).toContainText('The start node cannot have incoming edges');
  await editor.connect('ask', editor.node('ask').getByTestId('node-label'));
  await expect(editor.toasts().last()).toContainText('A node cannot connect to itself');
  await editor.connect('start', 'ask');
  await expect(editor.toasts().last()).toContainText('already connected');
  await expect(editor.edges()).toHaveCount(2);

  await editor.select('ask');
  await editor.field('userPrompt').fill('');
  await expect(editor.inspector.getByTestId('field-error')).toHaveText('the user prompt is required');
  await expect(editor.inspector.getByTestId('field-error')).toHaveAttribute(
    'data-path',
    'nodes[1].data.config.userPrompt',
  );
  await expect(editor.node('ask').getByTestId('node-problem-badge')).toHaveText('1');
  await expect(editor.problemCount()).toHaveAttribute('data-count', '1');

  // The problems panel lists it and selects the node when clicked.
  await editor.node('end').getByTestId('node-label').click();
  await editor.openTab('problems');
  const item = page.getByTestId('problem-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('the user prompt is required');
  await item.click();
  await expect(page.getByTestId('inspector-node-id')).toHaveText('ask');

  // Running an invalid workflow is refused with the reason.
  await page.getByTestId('run').click();
  await page.getByTestId('run-input-q').fill('hi');
  await page.getByTestId('run-submit').click();
  await expect(editor.toasts().last()).toContainText('the user prompt is required');

  // Autosave stored the draft (problems allowed in drafts); a reload shows the same graph and the same problem.
  await editor.waitSaved();
  const before = await editor.graph();
  expect((await getWorkflow(request, id)).graph).toEqual(before);
  await page.reload();
  await editor.waitReady();
  expect(await editor.graph()).toEqual(before);
  await expect(editor.edges()).toHaveCount(2);
  await expect(editor.node('ask').getByTestId('node-problem-badge')).toHaveText('1');
  await editor.select('ask');
  await expect(editor.field('userPrompt')).toHaveValue('');
  await expect(editor.inspector.getByTestId('field-error')).toHaveText('the user prompt is required');
});

test('a save over a newer revision says "changed elsewhere" and offers to merge', async ({ page, request }) => {
  const id = await createWorkflow(request, 'Conflict', chain([], {}));
  const editor = new EditorPage(page);
  await editor.goto(id);
  const wf = await getWorkflow(request, id);
  const res = await request.put(`/api/workflows/${id}?draft=1`, {
    data: { name: 'Renamed elsewhere', revision: wf.revision },
  });
  expect(res.ok()).toBeTruthy();
  await editor.select('start');
  await editor.field('label').fill('Edited here');
  await expect(page.getByTestId('conflict-banner')).toContainText('changed elsewhere', { timeout: 10_000 });
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'conflict');
  // The full conflict flow is e2e/edits-never-lost.spec.ts; here: their rename and my label merge.
  await page.getByTestId('conflict-dialog').getByTestId('merge').click();
  await editor.waitSaved();
  await expect(page.getByTestId('editor-workflow-name')).toHaveText('Renamed elsewhere');
});
