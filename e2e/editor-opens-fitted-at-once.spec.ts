/**
 * Guarantees: a workflow opens at the view that fits its cards, worked out from the cards' fixed sizes before they
 * mount (components/editor/canvas/opening-viewport.ts) — the same view React Flow's own fit chooses once it has
 * measured them, for plain and branching cards; and a graph large enough to open zoomed far out (cards in outline,
 * no handles once measured, the edges as one path) draws every edge from the handles' real places: the far path
 * and React Flow's edges meet the same handles once you zoom in to work.
 */
import { expect, test, type Page } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { createWorkflow } from './support/api';

type View = { x: number; y: number; zoom: number };

const view = (page: Page): Promise<View> =>
  page.locator('.react-flow__viewport').evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return { x: m.e, y: m.f, zoom: m.a };
  });

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

  // React Flow's fit, from the measured cards, lands where the workflow opened.
  await page.getByTestId('fit-view').click();
  await page.waitForTimeout(500);
  const fitted = await view(page);
  expect(Math.abs(fitted.zoom - opened.zoom) / opened.zoom).toBeLessThan(0.005);
  expect(Math.abs(fitted.x - opened.x)).toBeLessThan(2);
  expect(Math.abs(fitted.y - opened.y)).toBeLessThan(2);
});

test('a large graph opened zoomed far out draws its edges from the real handles, also after zooming in', async ({
  page,
  request,
}) => {
  const count = 150;
  const nodes = [node('start', 'start', 0, 0, { inputs: [{ name: 'q', type: 'string' }] })];
  const edges: Array<Record<string, unknown>> = [];
  for (let i = 1; i < count; i++) {
    nodes.push(node(`t${i}`, 'template', (i % 15) * 300, Math.floor(i / 15) * 160, { template: 'x', format: 'text' }));
    edges.push({ id: `e${i}`, source: i === 1 ? 'start' : `t${i - 1}`, target: `t${i}` });
  }
  const id = await createWorkflow(request, `Far out ${Date.now().toString(36)}`, { nodes, edges });
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.nodes()).toHaveCount(count);
  expect((await view(page)).zoom).toBeLessThan(0.3);
  // In outline, once measured, a card draws no handles (React Flow keeps the bounds it measured), and the edges are
  // one path under the cards, not React Flow's edges.
  await expect(editor.node('t20').locator('.react-flow__handle')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  const farPath = page.getByTestId('far-edges').locator('path');
  await expect.poll(async () => ((await farPath.getAttribute('d')) ?? '').split('M').length - 1).toBe(count - 1);
  const farPieces = ((await farPath.getAttribute('d')) ?? '')
    .split('M')
    .filter(Boolean)
    .map((p) => `M${p}`);

  /**
   * How far (in flow px) the ends of the edge from `source` to `target` are from the handles it joins: of `pieces`
   * (path data in flow coordinates), the one that ends nearest the target's input.
   */
  const gap = (source: string, target: string, pieces: string[]) =>
    page.evaluate(
      ({ from, to, paths }) => {
        const m = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform);
        const origin = document.querySelector('.react-flow__renderer')!.getBoundingClientRect();
        // React Flow joins an edge to the outer side of a handle: the right side of an output, the left of an input.
        const flow = (el: Element, side: 'left' | 'right') => {
          const r = el.getBoundingClientRect();
          const x = side === 'left' ? r.left : r.right;
          return { x: (x - origin.x - m.e) / m.a, y: (r.y + r.height / 2 - origin.y - m.f) / m.a };
        };
        const a = flow(document.querySelector(`[data-id="${from}"] [data-handlepos="right"]`)!, 'right');
        const b = flow(document.querySelector(`[data-id="${to}"] [data-handlepos="left"]`)!, 'left');
        const ends = (d: string) => {
          const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
          path.setAttribute('d', d);
          document.querySelector('svg')!.appendChild(path);
          const start = path.getPointAtLength(0);
          const end = path.getPointAtLength(path.getTotalLength());
          path.remove();
          return { start, end };
        };
        const { start, end } = paths
          .map(ends)
          .sort((p, q) => Math.hypot(p.end.x - b.x, p.end.y - b.y) - Math.hypot(q.end.x - b.x, q.end.y - b.y))[0];
        return Math.max(Math.hypot(start.x - a.x, start.y - a.y), Math.hypot(end.x - b.x, end.y - b.y));
      },
      { from: source, to: target, paths: pieces },
    );

  // Zoom in to work on one node: full cards with React Flow's handles and edges. React Flow's edge, and the far
  // path drawn before, both meet those handles.
  await page.evaluate(() =>
    (window as unknown as { __paiflow: { editor: { selectNode(id: string): void } } }).__paiflow.editor.selectNode(
      't20',
    ),
  );
  await expect.poll(async () => (await view(page)).zoom).toBeGreaterThan(0.8);
  await expect(editor.node('t20').locator('.react-flow__handle.connectable')).toHaveCount(2);
  const drawn = page.locator('.react-flow__edge[data-id="e20"] .react-flow__edge-path');
  await expect(drawn).toHaveCount(1);
  await expect(page.getByTestId('far-edges')).toHaveCount(0);
  expect(await gap('t19', 't20', [(await drawn.getAttribute('d'))!])).toBeLessThan(2);
  expect(await gap('t19', 't20', farPieces)).toBeLessThan(2);
});
