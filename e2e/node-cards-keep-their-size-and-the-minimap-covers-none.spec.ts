/**
 * Guarantees: a node card keeps its size whatever its run shows — after a run whose nodes put out long, multi-line
 * results, every card has the width and height it had before, no two cards overlap (laid out as tightly as
 * auto-layout does), and the result is one line on the card with the rest in a popover on hover; the minimap
 * covers no node card of the fitted graph, before or after the run, and still jumps where it is clicked.
 */
import { expect, test, type Locator } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { createWorkflow } from './support/api';
import { demoLlmNode } from './support/runs';

type Box = { x: number; y: number; width: number; height: number };

const LONG_LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}: {{inputs.q}} {{inputs.q}} {{inputs.q}}`);

/** Two rows 120 px apart (a card is about 94 px tall) and columns 300 px apart, as tight as auto-layout packs. */
function tightGraph() {
  const node = (id: string, type: string, x: number, y: number, config: Record<string, unknown>, label = id) => ({
    id,
    type,
    position: { x, y },
    data: { label, config },
  });
  const llm = demoLlmNode('ask', 'Write a long answer about {{inputs.q}}', 'Ask');
  return {
    nodes: [
      node('start', 'start', 0, 60, { inputs: [{ name: 'q', type: 'string' }] }, 'Start'),
      node('long', 'template', 300, 0, { format: 'text', template: LONG_LINES.join('\n') }, 'Long text'),
      node('json', 'template', 300, 120, { format: 'json', template: '{"items": [1, 2, 3], "q": "{{inputs.q}}"}' }),
      { ...llm, position: { x: 600, y: 0 }, data: { label: llm.label, config: llm.config } },
      node('again', 'template', 600, 120, { format: 'text', template: '{{long.output.text}}\n{{long.output.text}}' }),
      node(
        'end',
        'end',
        900,
        60,
        {
          outputs: [
            { name: 'a', value: '{{ask.output.text}}' },
            { name: 'b', value: '{{again.output.text}}' },
          ],
        },
        'End',
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'long' },
      { id: 'e2', source: 'start', target: 'json' },
      { id: 'e3', source: 'long', target: 'ask' },
      { id: 'e4', source: 'json', target: 'again' },
      { id: 'e5', source: 'long', target: 'again' },
      { id: 'e6', source: 'ask', target: 'end' },
      { id: 'e7', source: 'again', target: 'end' },
    ],
  };
}

function intersect(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxes(cards: Locator): Promise<Map<string, Box>> {
  const out = new Map<string, Box>();
  for (const card of await cards.all()) {
    const box = await card.boundingBox();
    if (box) out.set((await card.getAttribute('data-node-id'))!, box);
  }
  return out;
}

function overlaps(cards: Map<string, Box>): string[] {
  const list = [...cards.entries()];
  const found: string[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++)
      if (intersect(list[i][1], list[j][1])) found.push(`${list[i][0]} × ${list[j][0]}`);
  return found;
}

async function coveredByMinimap(editor: EditorPage, cards: Map<string, Box>): Promise<string[]> {
  const minimap = await editor.page.locator('.react-flow__minimap').boundingBox();
  expect(minimap).not.toBeNull();
  return [...cards.entries()].filter(([, b]) => intersect(minimap!, b)).map(([id]) => id);
}

test('after a run the node cards keep their size, none overlap, and the minimap covers none', async ({
  page,
  request,
}, testInfo) => {
  const id = await createWorkflow(request, `Fixed cards ${Date.now().toString(36)}`, tightGraph());
  const editor = new EditorPage(page);
  await editor.goto(id);
  await expect(editor.nodes()).toHaveCount(6);
  await expect(page.locator('.react-flow__minimap')).toBeVisible();

  const before = await boxes(editor.nodes());
  expect(before.size).toBe(6);
  expect(overlaps(before)).toEqual([]);
  expect(await coveredByMinimap(editor, before)).toEqual([]);

  await editor.run({ q: 'a fairly long question that fills the lines' });
  await editor.expectRunStatus('succeeded');
  for (const n of ['start', 'long', 'json', 'ask', 'again', 'end'])
    await expect(editor.node(n)).toHaveAttribute('data-status', 'succeeded');
  await expect(editor.node('long').getByTestId('node-live-text')).toContainText('line 1:');

  const after = await boxes(editor.nodes());
  for (const [n, b] of before) {
    const a = after.get(n)!;
    expect({ node: n, width: a.width, height: a.height }).toEqual({ node: n, width: b.width, height: b.height });
  }
  expect(overlaps(after)).toEqual([]);
  expect(await coveredByMinimap(editor, after)).toEqual([]);

  // The result is one line on the card; hovering it shows more, above the other cards, without moving them.
  const line = editor.node('again').getByTestId('node-live-text');
  const lineBox = (await line.boundingBox())!;
  expect(lineBox.height).toBeLessThanOrEqual(16);
  await line.hover();
  const popover = page.getByTestId('node-result-popover');
  await expect(popover).toBeVisible();
  await expect(popover).toContainText('line 12:');
  expect(await boxes(editor.nodes())).toEqual(after);
  await testInfo.attach('cards-after-run.png', { body: await page.screenshot(), contentType: 'image/png' });
  await page.mouse.move(5, 5);
  await expect(popover).toBeHidden();

  // The minimap still jumps where it is clicked.
  const viewport = () => page.locator('.react-flow__viewport').evaluate((el) => getComputedStyle(el).transform);
  const view = await viewport();
  const m = (await page.locator('.react-flow__minimap').boundingBox())!;
  await page.mouse.click(m.x + 8, m.y + 8);
  await expect.poll(viewport).not.toBe(view);
});
