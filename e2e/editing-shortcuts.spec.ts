/**
 * Guarantees: multi-select, copy / paste (with references between copied nodes rewritten), delete, undo / redo
 * and auto-layout work from the keyboard and toolbar, and each is one undo step.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

test('multi-select, copy/paste, delete, undo/redo and auto-layout', async ({ page, request }) => {
  const graph = chain([
    { id: 'a', type: 'template', label: 'A', config: { template: 'a', format: 'text' } },
    { id: 'b', type: 'template', label: 'B', config: { template: 'b={{a.output.text}}', format: 'text' } },
  ]);
  const id = await createWorkflow(request, 'Editing', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.nodes()).toHaveCount(4);
  await expect(editor.edges()).toHaveCount(3);

  // The palette lists every registered type by category and filters as you type.
  await expect(page.getByTestId('palette-item-http')).toBeVisible();
  await page.getByTestId('palette-search').fill('http');
  await expect(page.getByTestId('palette-item-http')).toBeVisible();
  await expect(page.getByTestId('palette-item-template')).toBeHidden();
  await page.getByTestId('palette-search').fill('');

  await editor.node('a').getByTestId('node-label').click();
  await editor
    .node('b')
    .getByTestId('node-label')
    .click({ modifiers: ['Control'] });
  await expect(editor.inspector).toContainText('2 nodes selected');

  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(editor.nodes()).toHaveCount(6);
  await expect(editor.edges()).toHaveCount(4); // the a→b edge is copied with them
  const pasted = (await editor.graph()).nodes.filter((n) => !['start', 'a', 'b', 'end'].includes(n.id));
  expect(pasted.map((n) => n.id)).toEqual(['template_1', 'template_2']);
  expect((pasted[1].data.config as { template: string }).template).toBe('b={{template_1.output.text}}');

  await page.keyboard.press('Delete');
  await expect(editor.nodes()).toHaveCount(4);
  await expect(editor.edges()).toHaveCount(3);

  await page.keyboard.press('Control+z');
  await expect(editor.nodes()).toHaveCount(6);
  await page.keyboard.press('Control+Shift+z');
  await expect(editor.nodes()).toHaveCount(4);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expect(editor.nodes()).toHaveCount(4);
  await expect(page.getByTestId('undo')).toBeDisabled();

  // Auto-layout puts every node in a layer by its longest path from start: x grows along the chain.
  await page.getByTestId('auto-layout').click();
  const xs = async () => Object.fromEntries((await editor.graph()).nodes.map((n) => [n.id, n.position.x]));
  await expect
    .poll(async () => {
      const x = await xs();
      return x.start < x.a && x.a < x.b && x.b < x.end;
    })
    .toBe(true);
  await editor.waitSaved();
});
