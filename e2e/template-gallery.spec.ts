/**
 * Guarantees: "New workflow" opens the template gallery with every template of GET /api/templates; the search box
 * narrows the cards, a category shows only its own, and the selected card shows its graph preview and how-to note;
 * "Use template" creates the workflow and the editor opens with the template's graph (every node), named after the
 * template. In a Chinese browser the gallery (its previews' branch labels too), the new workflow's name and its node
 * labels are in Chinese.
 * Screenshots of the gallery and of the editor are kept.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { getWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';

interface TemplateLite {
  id: string;
  name: string;
  category: string;
  nodeCount: number;
  graph: { nodes: Array<{ id: string; data: { label?: string } }> };
}

/** The gallery dialog (components/workflow-list/templates/template-gallery.tsx). */
class TemplateGallery {
  readonly dialog: Locator;
  readonly search: Locator;
  readonly detail: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByTestId('template-gallery');
    this.search = this.dialog.getByTestId('template-search');
    this.detail = this.dialog.getByTestId('template-detail');
  }

  async open() {
    await this.page.getByTestId('new-workflow').click();
    await expect(this.dialog).toHaveAttribute('data-loaded', 'true');
  }

  cards(): Locator {
    return this.dialog.getByTestId('template-card');
  }

  card(id: string): Locator {
    return this.dialog.locator(`[data-testid="template-card"][data-template-id="${id}"]`);
  }

  /** Picks a card and waits until the detail pane shows it. */
  async pick(id: string) {
    await this.card(id).click();
    await expect(this.detail).toHaveAttribute('data-template-id', id);
  }

  /** "Use template": the editor opens with the new workflow; returns its id. */
  async use(): Promise<string> {
    await this.dialog.getByTestId('use-template').click();
    await this.page.waitForURL(/\/workflows\/wf_/);
    return new URL(this.page.url()).pathname.split('/').pop()!;
  }
}

async function templates(page: Page, lang: 'en' | 'zh-CN'): Promise<TemplateLite[]> {
  const res = await page.request.get(`/api/templates?lang=${lang}`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test('search, filter, preview and use a template; the editor opens with its graph', async ({ page }, testInfo) => {
  const all = await templates(page, 'en');
  const loop = all.find((t) => t.id === 'draft-review-loop')!;
  const list = new WorkflowListPage(page);
  await list.goto();
  const gallery = new TemplateGallery(page);
  await gallery.open();
  await expect(gallery.cards()).toHaveCount(all.length);

  // A category shows only its own templates.
  const agents = all.filter((t) => t.category === 'agents').map((t) => t.id);
  await gallery.dialog.getByTestId('template-category-agents').click();
  await expect(gallery.cards()).toHaveCount(agents.length);
  for (const id of agents) await expect(gallery.card(id)).toBeVisible();
  await gallery.dialog.getByTestId('template-category-all').click();
  await expect(gallery.cards()).toHaveCount(all.length);

  // The search narrows the cards to those whose words match.
  await gallery.search.fill('draft review');
  await expect(gallery.card('draft-review-loop')).toBeVisible();
  await expect(gallery.card('rag-qa')).toHaveCount(0);
  await gallery.search.fill('no template is called this');
  await expect(gallery.dialog.getByTestId('template-none')).toBeVisible();
  await gallery.search.fill('loop');
  await gallery.pick('draft-review-loop');

  // The detail pane: the graph preview (one box per node) and the how-to note.
  await expect(gallery.detail).toContainText(loop.name);
  await expect(gallery.detail.getByTestId('template-preview').locator('rect')).toHaveCount(loop.nodeCount);
  await expect(gallery.detail.getByTestId('template-howto')).toContainText('VERDICT: APPROVED');
  const shot = testInfo.outputPath('template-gallery.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('template gallery', { path: shot, contentType: 'image/png' });

  const id = await gallery.use();
  const editor = new EditorPage(page);
  await editor.waitReady();
  await expect(editor.nodes()).toHaveCount(loop.nodeCount);
  expect((await editor.nodeIds()).sort()).toEqual(loop.graph.nodes.map((n) => n.id).sort());
  const stored = await getWorkflow(page.request, id);
  expect(stored.name).toMatch(/^Draft → review loop( \(\d+\))?$/);
  const editorShot = testInfo.outputPath('editor-from-template.png');
  await page.screenshot({ path: editorShot });
  await testInfo.attach('editor opened from a template', { path: editorShot, contentType: 'image/png' });
});

test.describe('in a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('the gallery, the new workflow and its node labels are in Chinese', async ({ page }, testInfo) => {
    const all = await templates(page, 'zh-CN');
    const approval = all.find((t) => t.id === 'approval-before-http')!;
    const list = new WorkflowListPage(page);
    await list.goto();
    const gallery = new TemplateGallery(page);
    await gallery.open();
    await expect(gallery.dialog).toHaveAttribute('aria-label', '新建工作流');
    await expect(gallery.card('rag-qa')).toContainText('知识库问答（带引用）');

    await gallery.search.fill('审批');
    await gallery.pick('approval-before-http');
    await expect(gallery.detail.getByTestId('template-howto')).toContainText('targetUrl');
    // The preview names the condition's branches in Chinese too ("approved" / "else" before).
    await expect(gallery.detail.getByTestId('template-preview-branch')).toHaveText(['已批准', '否则']);
    const shot = testInfo.outputPath('template-gallery-zh.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('template gallery (zh-CN)', { path: shot, contentType: 'image/png' });

    const id = await gallery.use();
    const editor = new EditorPage(page);
    await editor.waitReady();
    await expect(editor.nodes()).toHaveCount(approval.nodeCount);
    await expect(editor.node('approve')).toContainText('是否批准？');
    expect((await getWorkflow(page.request, id)).name).toMatch(/^人工审批后再调用接口( \(\d+\))?$/);
  });
});
