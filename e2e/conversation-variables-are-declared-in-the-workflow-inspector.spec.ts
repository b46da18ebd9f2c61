/**
 * Guarantees (issue 45): the workflow inspector lists a workflow's conversation variables and declares new ones (name,
 * type, default); the draft saves them, a reload shows them, and a Variable assigner's operation picks its variable
 * from the declared ones; a ref to one the workflow does not declare is a problem on the node.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow, getWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

test('conversation variables are declared in the workflow inspector and picked in the assigner', async ({
  page,
  request,
}) => {
  const graph = {
    ...chain(
      [
        {
          id: 'remember',
          type: 'variable_assigner',
          config: { operations: [{ variable: 'visits', operation: 'add', value: 1 }] },
        },
      ],
      { outputs: [{ name: 'answer', value: 'visits={{conversation.visits}}' }] },
    ),
    conversationVariables: [{ name: 'visits', type: 'number', default: 0 }],
  };
  const id = await createWorkflow(request, 'Conversation variables', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.problemCount()).toHaveAttribute('data-count', '0');

  const rows = page.getByTestId('conversation-variable');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('conversation-variable-name')).toHaveValue('visits');
  await page.getByTestId('add-conversation-variable').click();
  await expect(rows).toHaveCount(2);
  await rows.nth(1).getByTestId('conversation-variable-name').fill('notes');
  await rows.nth(1).getByTestId('conversation-variable-type').selectOption('array[string]');
  await rows.nth(1).getByTestId('conversation-variable-default').fill('["hello"]');
  await editor.waitSaved();
  expect((await getWorkflow(request, id)).graph.conversationVariables).toEqual([
    { name: 'visits', type: 'number', default: 0 },
    { name: 'notes', type: 'array[string]', default: ['hello'] },
  ]);

  await page.reload();
  await editor.waitReady();
  await expect(rows).toHaveCount(2);
  await editor.select('remember');
  const variable = editor.field('operations[0].variable');
  await expect(variable).toHaveValue('visits');
  await expect(variable.locator('option')).toContainText(['visits', 'notes']);

  // Renaming the declared variable leaves the assigner and the End's ref pointing at nothing: both are problems.
  const pane = page.locator('.react-flow__pane');
  const box = (await pane.boundingBox())!;
  await pane.click({ position: { x: box.width / 2, y: box.height - 24 } });
  await expect(rows).toHaveCount(2);
  await rows.first().getByTestId('conversation-variable-name').fill('count');
  await editor.waitValidated();
  await expect(editor.node('remember').getByTestId('node-problem-badge')).toHaveText('1');
  await expect(editor.node('end').getByTestId('node-problem-badge')).toHaveText('1');
});
