/**
 * Guarantees: zoomed far out (below 0.3), a large graph mounts no node card — the overview canvas draws every node
 * and edge (components/editor/canvas/overview-*.ts), the minimap still shows every node, and zooming in to work
 * brings the cards in view, whose handles sit where the overview drew the edges' ends; and on the drawn nodes the
 * pointer works as on cards: a click selects (Ctrl adds), a drag moves the selection as one undo step without
 * panning, a Shift-drag box selects, a click on the empty canvas clears the selection, Delete removes them, and a
 * double click zooms in to one.
 */
import { expect, test, type Page } from '@playwright/test';
import { EditorPage, type PaiflowWindow } from './pages/editor.page';
import { createWorkflow } from './support/api';

type Win = PaiflowWindow & {
  __paiflow: {
    editor: {
      state: { selectedIds: string[]; edges: Array<{ id: string; selected?: boolean }> };
      selectNode(id: string | null): void;
    };
  };
};

const view = (page: Page) => new EditorPage(page).viewport();

function node(id: string, type: string, x: number, y: number, config: Record<string, unknown>) {
  return { id, type, position: { x, y }, data: { label: id, config } };
}

const COUNT = 150;
const at = (i: number) => ({ x: (i % 15) * 300, y: Math.floor(i / 15) * 160 });

/** start → t1 … t148 → route (a condition with two branches) in rows of 15 cards. */
function bigGraph() {
  const nodes = [node('start', 'start', 0, 0, { inputs: [{ name: 'q', type: 'string' }] })];
  const edges: Array<Record<string, unknown>> = [];
  for (let i = 1; i < COUNT - 1; i++) {
    nodes.push(node(`t${i}`, 'template', at(i).x, at(i).y, { template: 'x', format: 'text' }));
    edges.push({ id: `e${i}`, source: i === 1 ? 'start' : `t${i - 1}`, target: `t${i}` });
  }
  const branch = (id: string) => ({ id, label: id, conditions: [{ left: '{{inputs.q}}', op: 'eq', right: id }] });
  nodes.push(node('route', 'condition', at(COUNT - 1).x, at(COUNT - 1).y, { branches: [branch('b1'), branch('b2')] }));
  edges.push({ id: 'e-route', source: `t${COUNT - 2}`, target: 'route' });
  return { nodes, edges };
}

async function openFarOut(page: Page, request: Parameters<typeof createWorkflow>[0]) {
  const id = await createWorkflow(request, `Overview ${Date.now().toString(36)}`, bigGraph());
  const editor = new EditorPage(page);
  await editor.goto(id);
  expect((await view(page)).zoom).toBeLessThan(0.3);
  return editor;
}

/** A flow point on screen, through the viewport. */
async function flowPoint(page: Page, p: { x: number; y: number }) {
  const [v, origin] = await Promise.all([view(page), page.locator('.react-flow__renderer').boundingBox()]);
  return { x: origin!.x + v.x + p.x * v.zoom, y: origin!.y + v.y + p.y * v.zoom };
}

/** A node's centre on screen (or another point of it), from its position in the editor and the viewport. */
async function screenPoint(page: Page, id: string, dx = 120, dy = 48) {
  const pos = await page.evaluate(
    (n) =>
      (window as unknown as { __paiflow: { graph(): { nodes: Array<{ id: string; position: object }> } } }).__paiflow
        .graph()
        .nodes.find((x) => x.id === n)!.position as { x: number; y: number },
    id,
  );
  return flowPoint(page, { x: pos.x + dx, y: pos.y + dy });
}

const selected = (page: Page) =>
  page.evaluate(() => [...(window as unknown as Win).__paiflow.editor.state.selectedIds].sort());
const selectedEdges = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as Win).__paiflow.editor.state.edges.filter((e) => e.selected).map((e) => e.id),
  );

test('zoomed far out no card is mounted: the overview draws every node, and cards come where it drew', async ({
  page,
  request,
}, testInfo) => {
  const editor = await openFarOut(page, request);
  const overview = page.getByTestId('overview');
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(overview).toHaveAttribute('data-drawn', String(COUNT));
  await expect(page.getByTestId('minimap')).toHaveAttribute('data-nodes', String(COUNT));

  // The canvas really has the cards on it: t20's chip in its category's colour (data: sky), nothing between cards.
  const pixel = (p: { x: number; y: number }) =>
    overview.evaluate((el, q) => {
      const c = el as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      const scale = c.width / r.width;
      const [red, green, blue, alpha] = c
        .getContext('2d')!
        .getImageData(Math.round((q.x - r.left) * scale), Math.round((q.y - r.top) * scale), 1, 1).data;
      return { red, green, blue, alpha };
    }, p);
  expect(await pixel(await screenPoint(page, 't20', 24, 25))).toEqual({ red: 2, green: 132, blue: 199, alpha: 255 });
  expect((await pixel(await screenPoint(page, 't20', 270, 48))).alpha).toBe(0);
  await testInfo.attach('overview-far-out.png', { body: await page.screenshot(), contentType: 'image/png' });

  // Zoomed in to work on t20, the cards in view are mounted, and the overview draws none of them.
  await page.evaluate(() => (window as unknown as Win).__paiflow.editor.selectNode('t20'));
  await expect.poll(async () => (await view(page)).zoom).toBeGreaterThan(0.8);
  await editor.waitReady();
  await expect(editor.node('t20')).toBeVisible();
  await expect(page.locator('.react-flow__edge[data-id="e20"]')).toHaveCount(1);
  expect(Number(await overview.getAttribute('data-cards'))).toBeGreaterThan(0);
  await expect(overview).toHaveAttribute('data-drawn', '0');

  // Each handle is where the card geometry the overview drew from puts it (in flow px from the card's corner).
  const handles = (id: string) =>
    page.evaluate((n) => {
      const m = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform);
      const card = document.querySelector(`.react-flow__node[data-id="${n}"]`)!.getBoundingClientRect();
      return [...document.querySelectorAll(`.react-flow__node[data-id="${n}"] .react-flow__handle`)].map((h) => {
        const r = h.getBoundingClientRect();
        const source = h.classList.contains('source');
        const x = ((source ? r.right : r.left) - card.left) / m.a;
        return {
          id: h.getAttribute('data-handleid'),
          x: Math.round(x),
          y: Math.round((r.top + r.height / 2 - card.top) / m.a),
        };
      });
    }, id);
  expect(await handles('t20')).toEqual([
    { id: 'in', x: -3, y: 23 },
    { id: 'out', x: 243, y: 23 },
  ]);
  await page.evaluate(() => (window as unknown as Win).__paiflow.editor.selectNode('route'));
  await expect(editor.node('route')).toBeVisible();
  await expect
    .poll(() => handles('route'))
    .toEqual([
      { id: 'in', x: -3, y: 23 },
      { id: 'b1', x: 243, y: 111 },
      { id: 'b2', x: 243, y: 135 },
      { id: 'else', x: 243, y: 159 },
    ]);

  // Zoomed out again past 0.3, the cards go, a few a frame, and the overview draws them instead.
  await page.getByTestId('fit-view').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await expect(overview).toHaveAttribute('data-drawn', String(COUNT));
});

test('zoomed far out, drawn nodes are clicked, dragged as one undo step, box-selected, deleted, zoomed to', async ({
  page,
  request,
}) => {
  const editor = await openFarOut(page, request);
  const before = await view(page);

  await page.mouse.click(...(Object.values(await screenPoint(page, 't20')) as [number, number]));
  expect(await selected(page)).toEqual(['t20']);
  await expect(editor.inspector).toContainText('t20');
  const t21 = await screenPoint(page, 't21');
  await page.keyboard.down('Control');
  await page.mouse.click(t21.x, t21.y);
  await page.keyboard.up('Control');
  expect(await selected(page)).toEqual(['t20', 't21']);

  // Dragging t20 moves both selected nodes by the pointer's travel in flow px, and does not pan the canvas.
  const from = await screenPoint(page, 't20');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + 6 * i, from.y + 4 * i);
  await page.mouse.up();
  const positions = async () =>
    Object.fromEntries(
      (await editor.graph()).nodes.filter((n) => n.id === 't20' || n.id === 't21').map((n) => [n.id, n.position]),
    );
  const moved = await positions();
  expect(moved.t20.x).toBeCloseTo(at(20).x + 60 / before.zoom, 0);
  expect(moved.t20.y).toBeCloseTo(at(20).y + 40 / before.zoom, 0);
  expect(moved.t21.x).toBeCloseTo(at(21).x + 60 / before.zoom, 0);
  expect(await view(page)).toEqual(before);
  expect(await selected(page)).toEqual(['t20', 't21']);

  // One undo puts both back.
  await page.getByTestId('undo').click();
  await expect.poll(positions).toEqual({ t20: at(20), t21: at(21) });

  // A click on the empty canvas clears the selection; a Shift-drag box around t1–t3 selects exactly those.
  const empty = await screenPoint(page, 't20', 270, 48);
  await page.mouse.click(empty.x, empty.y);
  expect(await selected(page)).toEqual([]);
  const a = await screenPoint(page, 't1', -20, -20);
  const b = await screenPoint(page, 't3', 260, 116);
  await page.keyboard.down('Shift');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2);
  await page.mouse.move(b.x, b.y);
  await page.mouse.up();
  await page.keyboard.up('Shift');
  expect(await selected(page)).toEqual(['t1', 't2', 't3']);

  // Delete removes the selected drawn nodes and their edges.
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await editor.graph()).nodes.length).toBe(COUNT - 3);
  const graph = await editor.graph();
  expect(graph.nodes.map((n) => n.id)).not.toContain('t2');
  expect(graph.edges.filter((e) => ['t1', 't2', 't3'].includes(String(e.source)))).toEqual([]);
  await expect(page.getByTestId('overview')).toHaveAttribute('data-drawn', String(COUNT - 3));

  // A double click on a drawn node zooms in to work on it: selected, centred, its card mounted.
  const t40 = await screenPoint(page, 't40');
  await page.mouse.dblclick(t40.x, t40.y);
  expect(await selected(page)).toEqual(['t40']);
  await expect.poll(async () => (await view(page)).zoom).toBeGreaterThan(0.8);
  await expect(editor.node('t40')).toBeVisible();
});

test('zoomed far out, a drawn edge is selected with a click, deleted, and brought back by undo', async ({
  page,
  request,
}) => {
  const editor = await openFarOut(page, request);
  const edgeIds = async () => (await editor.graph()).edges.map((e) => String(e.id));
  // e15 runs back from the end of the first row (t14's output at 4443, 23) to the start of the second (t15's input
  // at -3, 183); the middle of React Flow's curve is the middle of its ends, in the gap between the rows.
  const middle = await flowPoint(page, { x: (4443 - 3) / 2, y: (23 + 183) / 2 });
  await page.mouse.click(middle.x, middle.y);
  expect(await selectedEdges(page)).toEqual(['e15']);
  expect(await selected(page)).toEqual([]);
  // A click 8 px below it, still in the gap between the rows, is on the empty canvas: nothing is selected.
  await page.mouse.click(middle.x, middle.y + 8);
  expect(await selectedEdges(page)).toEqual([]);

  await page.mouse.click(middle.x, middle.y);
  await page.keyboard.press('Delete');
  await expect.poll(edgeIds).not.toContain('e15');
  expect(await edgeIds()).toHaveLength(COUNT - 2);
  expect((await editor.graph()).nodes).toHaveLength(COUNT);
  await page.getByTestId('undo').click();
  await expect.poll(edgeIds).toContain('e15');
});
