/**
 * Guarantees: the palette, the inspector and the run panel can each be collapsed to give the canvas room, the run
 * panel can be resized by its handle (mouse and keyboard), all of it is remembered across a reload, focus mode hides
 * every panel at once and restores them, and the minimap jumps where it is clicked and can be hidden (remembered).
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

async function box(l: Locator) {
  const b = await l.boundingBox();
  expect(b, 'element has a bounding box').not.toBeNull();
  return b!;
}

/** Heights follow the stored pixel value; a pixel either way allows for borders and rounding. */
function near(actual: number, expected: number) {
  return Math.abs(actual - expected) <= 2;
}

async function shot(page: Page, testInfo: TestInfo, name: string, title: string) {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(title, { path, contentType: 'image/png' });
}

test('collapse palette and inspector, resize and collapse the run panel, focus mode, all remembered', async ({
  page,
  request,
}, testInfo) => {
  const graph = chain([{ id: 'a', type: 'template', label: 'A', config: { template: 'a', format: 'text' } }]);
  const id = await createWorkflow(request, 'Room to work', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const palette = page.getByTestId('palette');
  const bottom = page.getByTestId('bottom-panel');
  const start = await box(editor.canvas);

  // Collapsing the palette widens the canvas; the button says what it does and whether the panel is open.
  const togglePalette = page.getByRole('button', { name: 'Collapse the palette' });
  await expect(togglePalette).toHaveAttribute('aria-expanded', 'true');
  await togglePalette.click();
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('toggle-palette')).toHaveAttribute('aria-expanded', 'false');
  const noPalette = await box(editor.canvas);
  expect(noPalette.width).toBeGreaterThan(start.width + 200);

  // The inspector collapses from the keyboard too.
  await page.getByTestId('toggle-inspector').focus();
  await page.keyboard.press('Enter');
  await expect(editor.inspector).toBeHidden();
  await expect(page.getByTestId('toggle-inspector')).toHaveAttribute('aria-expanded', 'false');
  const noPanels = await box(editor.canvas);
  expect(noPanels.width).toBeGreaterThan(noPalette.width + 300);

  // The run panel's handle is a separator: dragging it up makes the panel taller and the canvas shorter.
  const handle = page.getByRole('separator', { name: 'Resize the run panel' });
  await expect(handle).toHaveAttribute('aria-orientation', 'horizontal');
  const before = await box(bottom);
  const h = await box(handle);
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2 - 60, { steps: 4 });
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2 - 120, { steps: 4 });
  await page.mouse.up();
  const dragged = await box(bottom);
  expect(Math.abs(dragged.height - (before.height + 120))).toBeLessThanOrEqual(4);
  expect((await box(editor.canvas)).height).toBeLessThan(noPanels.height - 100);
  // Arrow keys move it 16 px a step.
  await handle.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => near((await box(bottom)).height, dragged.height - 32)).toBe(true);
  const resized = await box(bottom);

  // Clicking a point on the minimap moves the view there; then it can be hidden from the controls.
  const minimap = page.locator('.react-flow__minimap');
  await expect(minimap).toBeVisible();
  const viewport = () => page.locator('.react-flow__viewport').evaluate((el) => getComputedStyle(el).transform);
  const viewBefore = await viewport();
  const m = await box(minimap);
  await page.mouse.click(m.x + 6, m.y + 6);
  await expect.poll(viewport).not.toBe(viewBefore);
  await page.getByTestId('toggle-minimap').click();
  await expect(page.locator('.react-flow__minimap')).toBeHidden();
  await shot(page, testInfo, 'room-to-work-collapsed.png', 'palette and inspector collapsed, run panel resized');

  // A reload opens the editor the way it was left.
  await page.reload();
  await editor.waitReady();
  await expect(palette).toBeHidden();
  await expect(editor.inspector).toBeHidden();
  await expect(page.locator('.react-flow__minimap')).toBeHidden();
  await expect.poll(async () => near((await box(bottom)).height, resized.height)).toBe(true);

  // Expanding brings them back and the canvas narrows again.
  await page.getByTestId('toggle-palette').click();
  await page.getByTestId('toggle-inspector').click();
  await expect(palette).toBeVisible();
  await expect(editor.inspector).toBeVisible();
  const reopened = await box(editor.canvas);
  expect(Math.abs(reopened.width - start.width)).toBeLessThanOrEqual(2);

  // The run panel collapses to its tab bar and the canvas takes the height; remembered too.
  await page.getByTestId('toggle-bottom-panel').click();
  await expect(page.getByTestId('toggle-bottom-panel')).toHaveAttribute('aria-expanded', 'false');
  await expect(handle).toBeHidden();
  expect((await box(bottom)).height).toBeLessThan(40);
  await page.reload();
  await editor.waitReady();
  expect((await box(bottom)).height).toBeLessThan(40);
  await page.getByTestId('toggle-bottom-panel').click();
  await expect.poll(async () => near((await box(bottom)).height, resized.height)).toBe(true);

  // Focus mode: F on the canvas hides palette, inspector and run panel together; F again restores them.
  const withPanels = await box(editor.canvas);
  await editor.node('a').getByTestId('node-label').click();
  await page.keyboard.press('f');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  await expect(bottom).toBeHidden();
  await expect(page.getByTestId('focus-mode')).toHaveAttribute('aria-pressed', 'true');
  const focused = await box(editor.canvas);
  expect(focused.width).toBeGreaterThan(withPanels.width + 500);
  expect(focused.height).toBeGreaterThan(withPanels.height + 200);
  await shot(page, testInfo, 'room-to-work-focus.png', 'focus mode');
  await page.keyboard.press('f');
  await expect(palette).toBeVisible();
  await expect(bottom).toBeVisible();
  // The button does the same, and focus mode itself is not remembered across a reload.
  await page.getByTestId('focus-mode').click();
  await expect(palette).toBeHidden();
  await page.reload();
  await editor.waitReady();
  await expect(palette).toBeVisible();
  await expect(bottom).toBeVisible();
  await expect(page.getByTestId('focus-mode')).toHaveAttribute('aria-pressed', 'false');
});
