/**
 * Guarantees: a workflow opens at the view that fits its cards, worked out from the cards' fixed sizes before they
 * mount (components/editor/canvas/opening-viewport.ts) — the same view React Flow's own fit chooses once it has
 * measured them, for plain and branching cards. A graph that opens zoomed far out:
 * overview-draws-what-the-cards-would.spec.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { createWorkflow } from './support/api';

const view = (page: Page) => new EditorPage(page).viewport();

function node(id: string, type: string, x: number, y: number, config: Record<string, unknown>) {
  return { id, type, position: { x, y }, data: { label: id, config } };
}

test('a workflow opens at the fit React Flow would choose, with cards the size the fit assumed', async ({
  page,
  request,
}) => {
  const graph = {
    nodes: [
      node('start', 'start', 0, 200, { inputs: [{ name: 'q', type: 'string' }] }),
      node('check', 'condition', 320, 180, {
        branches: [
          { id: 'a', label: 'A', conditions: [{ left: '{{inputs.q}}', op: 'eq', right: 'a' }] },
          { id: 'b', label: 'B', conditions: [{ left: '{{inputs.q}}', op: 'eq', right: 'b' }] },
        ],
      }),
      node('one', 'template', 700, 0, { template: 'one', format: 'text' }),
      node('two', 'template', 700, 400, { template: 'two', format: 'text' }),
      node('end', 'end', 1100, 620, { outputs: [{ name: 'out', value: '{{one.output.text}}' }] }),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'check' },
      { id: 'e2', source: 'check', sourceHandle: 'a', target: 'one' },
      { id: 'e3', source: 'check', sourceHandle: 'b', target: 'two' },
      { id: 'e4', source: 'one', target: 'end' },
    ],
  };
  const id = await createWorkflow(request, `Opens fitted ${Date.now().toString(36)}`, graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.nodes()).toHaveCount(5);
  const opened = await view(page);

  // Each card's size on screen, divided by the zoom, is the size the opening fit assumed.
  const size = async (n: string) => {
    const b = (await editor.node(n).boundingBox())!;
    return { width: Math.round(b.width / opened.zoom), height: Math.round(b.height / opened.zoom) };
  };
  expect(await size('one')).toEqual({ width: 240, height: 96 });
  expect(await size('check')).toEqual({ width: 240, height: 96 + 9 + 3 * 24 }); // A, B and else

  // React Flow's fit, from the measured cards, lands where the workflow opened: panned away first, the view comes
  // back there (its animation ends on the spot, or the poll times out).
  const pane = page.locator('.react-flow__pane');
  const p = (await pane.boundingBox())!;
  await page.mouse.move(p.x + p.width / 2, p.y + p.height - 20);
  await page.mouse.down();
  await page.mouse.move(p.x + p.width / 2 + 90, p.y + p.height - 80, { steps: 5 });
  await page.mouse.move(p.x + p.width / 2 + 180, p.y + p.height - 140, { steps: 5 });
  await page.mouse.up();
  const panned = await view(page);
  expect(Math.abs(panned.x - opened.x) + Math.abs(panned.y - opened.y)).toBeGreaterThan(100);
  await page.getByTestId('fit-view').click();
  await expect
    .poll(async () => {
      const fitted = await view(page);
      return (
        Math.abs(fitted.zoom - opened.zoom) / opened.zoom < 0.005 &&
        Math.abs(fitted.x - opened.x) < 2 &&
        Math.abs(fitted.y - opened.y) < 2
      );
    })
    .toBe(true);
});
