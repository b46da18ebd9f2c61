/**
 * Guarantees: auto-layout makes a 300-node chain readable (wrapped into rows that fit the canvas, instead of one row
 * 70,000 px long), lays a condition's branch targets out in the order of its handles so the branch edges do not
 * cross, and is one undo step.
 */
import { expect, test, type Page } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

/**
 * Positions as the editor holds them, once they differ from `before`. Auto-layout is async: its one undo step is
 * pushed when the layout is applied (Undo turns enabled), which for 300 nodes on a loaded 2-core machine can take
 * longer than the default 15 s.
 */
async function positionsAfterLayout(editor: EditorPage, before: string) {
  await expect(editor.page.getByTestId('undo')).toBeEnabled({ timeout: 60_000 });
  await expect.poll(async () => JSON.stringify((await editor.graph()).nodes.map((n) => n.position))).not.toBe(before);
  return (await editor.graph()).nodes;
}

/** The zoom of the canvas (React Flow's viewport transform). */
async function canvasZoom(page: Page): Promise<number> {
  return page.locator('.react-flow__viewport').evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
}

/**
 * The zoom once the fit that follows auto-layout has finished animating: the viewport's transform has not changed in
 * any animation frame for 400 ms (the fit animates for 300 ms and starts within a frame of the new positions).
 */
async function settledZoom(page: Page): Promise<number> {
  await page.waitForFunction(
    () => {
      const el = document.querySelector('.react-flow__viewport');
      if (!el) return false;
      const w = window as unknown as { __settle?: { t: string; since: number } };
      const t = getComputedStyle(el).transform;
      const now = performance.now();
      if (!w.__settle || w.__settle.t !== t) w.__settle = { t, since: now };
      return now - w.__settle.since >= 400;
    },
    undefined,
    { polling: 'raf' },
  );
  await page.evaluate(() => delete (window as unknown as { __settle?: unknown }).__settle);
  return canvasZoom(page);
}

/** Do any two of the edges' drawn paths cross? Each path is sampled into a polyline and the segments compared. */
async function pathsCross(page: Page, edgeIds: string[]): Promise<boolean> {
  return page.evaluate((ids) => {
    type P = { x: number; y: number };
    const lines = ids.map((id) => {
      const path = document.querySelector(`.react-flow__edge[data-id="${id}"] path.react-flow__edge-path`);
      if (!(path instanceof SVGPathElement)) throw new Error(`edge ${id} is not drawn`);
      const len = path.getTotalLength();
      return Array.from({ length: 41 }, (_, i) => path.getPointAtLength((len * i) / 40)) as P[];
    });
    const side = (a: P, b: P, c: P) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    const cross = (p1: P, p2: P, q1: P, q2: P) =>
      side(q1, q2, p1) * side(q1, q2, p2) < 0 && side(p1, p2, q1) * side(p1, p2, q2) < 0;
    for (let a = 0; a < lines.length; a++)
      for (let b = a + 1; b < lines.length; b++)
        // The first samples leave the same card side by side: compare from just after the handles.
        for (let i = 2; i < lines[a].length; i++)
          for (let j = 2; j < lines[b].length; j++)
            if (cross(lines[a][i - 1], lines[a][i], lines[b][j - 1], lines[b][j])) return true;
    return false;
  }, edgeIds);
}

test('a 300-node chain is wrapped into rows that fit the canvas, as one undo step', async ({ page, request }) => {
  test.setTimeout(180_000);
  const middle = Array.from({ length: 298 }, (_, i) => ({
    id: `t${i + 1}`,
    type: 'template',
    config: { template: `step ${i + 1}`, format: 'text' },
  }));
  const graph = chain(middle);
  const id = await createWorkflow(request, 'Long chain', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  expect((await editor.graph()).nodes).toHaveLength(300);

  const before = JSON.stringify((await editor.graph()).nodes.map((n) => n.position));
  await page.getByTestId('auto-layout').click();
  const nodes = await positionsAfterLayout(editor, before);

  // A card's own size (e2e/editor-opens-fitted-at-once.spec.ts checks it on screen).
  const [cardW, cardH] = [240, 96];
  const xs = nodes.map((n) => n.position.x);
  const ys = nodes.map((n) => n.position.y);
  const width = Math.max(...xs) + cardW - Math.min(...xs);
  const height = Math.max(...ys) + cardH - Math.min(...ys);
  // Rows, not one line: near the screen's 16:10 shape, and every node right of its predecessor or in a lower row.
  expect(new Set(ys).size).toBeGreaterThanOrEqual(10);
  expect(width / height).toBeGreaterThan(1);
  expect(width / height).toBeLessThan(2.6);
  for (let i = 1; i < nodes.length; i++) {
    const [p, c] = [nodes[i - 1].position, nodes[i].position];
    expect(c.x > p.x || c.y > p.y, `${nodes[i].id} follows ${nodes[i - 1].id}`).toBe(true);
  }

  // After the fit that follows the layout, every card is on screen at a zoom far above what one row would need.
  const zoom = await settledZoom(page);
  const canvas = (await editor.canvas.boundingBox())!;
  const oneRowZoom = canvas.width / (300 * cardW);
  expect(zoom).toBeGreaterThan(oneRowZoom * 8);
  const v = await page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrix(getComputedStyle(el).transform))
    .then((m) => ({ x: m.e, y: m.f }));
  const outside = nodes.filter((n) => {
    const left = v.x + n.position.x * zoom;
    const top = v.y + n.position.y * zoom;
    return left < -1 || top < -1 || left + cardW * zoom > canvas.width + 1 || top + cardH * zoom > canvas.height + 1;
  });
  expect(outside.map((n) => n.id)).toEqual([]);
  // And every one is drawn: as a card, or (zoomed out this far) by the overview.
  await editor.waitReady();
  const drawn = Number(await page.getByTestId('overview').getAttribute('data-drawn'));
  expect(drawn + (await editor.nodes().count())).toBe(300);

  // One undo step puts every node back.
  await page.getByTestId('undo').click();
  await expect.poll(async () => JSON.stringify((await editor.graph()).nodes.map((n) => n.position))).toBe(before);
});

test('a condition’s branch targets follow its handles and the branch edges do not cross', async ({ page, request }) => {
  const cond = (v: string) => ({ left: '{{inputs.kind}}', op: 'eq', right: v });
  const branches = ['one', 'two', 'three'].map((v, i) => ({ id: `b${i + 1}`, label: v, conditions: [cond(v)] }));
  // Targets stored (and placed) in the opposite order of the handles, so a layout that ignores handles crosses them.
  const graph = chain(
    [
      { id: 'route', type: 'condition', config: { branches } },
      { id: 'tElse', type: 'template', config: { template: 'else', format: 'text' } },
      { id: 't3', type: 'template', config: { template: '3', format: 'text' } },
      { id: 't2', type: 'template', config: { template: '2', format: 'text' } },
      { id: 't1', type: 'template', config: { template: '1', format: 'text' } },
    ],
    { inputs: [{ name: 'kind' }] },
  );
  graph.nodes.forEach((n, i) => {
    if (n.id.startsWith('t')) n.position = { x: 600, y: 150 * (i - 2) };
  });
  const targets = ['t1', 't2', 't3', 'tElse'];
  const handles = ['b1', 'b2', 'b3', 'else'];
  graph.edges = [
    { id: 'e-start', source: 'start', target: 'route' },
    ...targets
      .map((t, i) => ({ id: `e-${handles[i]}`, source: 'route', target: t, sourceHandle: handles[i] }))
      .reverse(),
    ...targets.map((t) => ({ id: `e-${t}-end`, source: t, target: 'end' })),
  ];
  const id = await createWorkflow(request, 'Branches', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.nodes()).toHaveCount(7);

  const before = JSON.stringify((await editor.graph()).nodes.map((n) => n.position));
  await page.getByTestId('auto-layout').click();
  await positionsAfterLayout(editor, before);
  await settledZoom(page);

  // On screen, top to bottom: the handles b1, b2, b3, else and their targets in the same order.
  const handleYs = await Promise.all(
    handles.map(async (h) => (await editor.sourceHandle('route', h).boundingBox())!.y),
  );
  expect([...handleYs].sort((a, b) => a - b)).toEqual(handleYs);
  const targetYs = await Promise.all(targets.map(async (t) => (await editor.targetHandle(t).boundingBox())!.y));
  expect([...targetYs].sort((a, b) => a - b)).toEqual(targetYs);
  expect(
    await pathsCross(
      page,
      handles.map((h) => `e-${h}`),
    ),
  ).toBe(false);
  await editor.waitSaved();
});
