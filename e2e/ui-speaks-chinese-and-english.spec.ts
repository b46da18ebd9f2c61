/**
 * Guarantees: a Chinese browser gets the whole UI in Simplified Chinese (the workflow list, the editor's toolbar,
 * palette, inspector and zoom controls, the run panel's statuses, the knowledge page's search path, the audit log's
 * actions, /runs with Chinese dates) and API errors in Chinese with the same
 * stable code; the language switch in the account menu turns everything to English and back, and the choice is
 * remembered across reloads even against the browser's Accept-Language. Screenshots of each language are kept.
 * The expected texts are read from the message files, so the spec checks the translations, not copies of them.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { MESSAGES } from '../messages';
import { chain, createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

const zh = MESSAGES['zh-CN'];
const en = MESSAGES.en;
type Tree = { [k: string]: string | Tree };
const text = (tree: unknown, key: string): string => {
  const v = key.split('.').reduce<unknown>((at, k) => (at as Tree | undefined)?.[k], tree);
  if (typeof v !== 'string') throw new Error(`no message ${key}`);
  return v;
};

async function shot(page: Page, testInfo: TestInfo, name: string, title: string) {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(title, { path, contentType: 'image/png' });
}

/** Picks a language in the account menu; the page reloads in it. */
async function switchTo(page: Page, locale: 'en' | 'zh-CN') {
  await page.getByTestId('account-menu-button').click();
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('language-switcher').selectOption(locale);
  await reloaded;
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

test.describe('in a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('the UI is Chinese, switches to English and back, and remembers the choice', async ({
    page,
    request,
  }, testInfo) => {
    const graph = chain([{ id: 'fmt', type: 'template', label: 'fmt', config: { template: 'hi', format: 'text' } }]);
    const id = await createWorkflow(request, 'Bilingual', graph);

    // The list follows Accept-Language: Chinese title, button and menu.
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByText(text(zh.workflowList, 'title'), { exact: true }).first()).toBeVisible();
    await expect(page.getByTestId('new-workflow')).toContainText(text(zh.workflowList, 'nav.newWorkflow'));
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByTestId('sign-out')).toHaveText(text(zh.common, 'accountMenu.signOut'));
    await expect(page.getByTestId('language-switcher')).toHaveValue('zh-CN');
    await shot(page, testInfo, 'workflow-list-zh.png', 'workflow list (zh-CN)');
    await page.keyboard.press('Escape');

    // The editor: toolbar, palette (node labels come from the catalogue in Chinese) and a run's status.
    const editor = new EditorPage(page);
    await editor.goto(id);
    await expect(page.getByTestId('save')).toContainText(text(zh.editor, 'toolbar.save'));
    await expect(page.getByTestId('palette')).toContainText(text(zh.nodes, 'llm.label'));
    await expect(page.getByTestId('palette')).toContainText(text(zh.canvas, 'palette.title'));
    await editor.run();
    await editor.expectRunStatus('succeeded');
    await expect(page.getByTestId('trace-panel')).toContainText(text(zh.common, 'status.succeeded'));
    await shot(page, testInfo, 'editor-zh.png', 'editor after a run (zh-CN)');
    // React Flow's own zoom controls: tooltips and labels in Chinese.
    for (const [cls, key] of [
      ['zoomin', 'zoomIn'],
      ['zoomout', 'zoomOut'],
      ['fitview', 'fitView'],
    ]) {
      const button = page.locator(`.react-flow__controls-${cls}`);
      await expect(button).toHaveAttribute('title', text(zh.canvas, `a11y.${key}`));
      await expect(button).toHaveAttribute('aria-label', text(zh.canvas, `a11y.${key}`));
    }

    // The knowledge page says how a knowledge base is searched in Chinese.
    const kbName = `双语知识库 ${Date.now().toString(36)}`;
    expect((await request.post('/api/knowledge-bases', { data: { name: kbName } })).status()).toBe(201);
    await page.goto('/knowledge');
    await page.getByTestId('kb-item').filter({ hasText: kbName }).click();
    const searchPath = page.getByTestId('kb-search-path');
    await expect(searchPath).toContainText(text(zh.knowledge, 'coverage.searchEmbedded').split('（')[0]);
    await expect(searchPath).not.toContainText('embedded hybrid index');

    // The audit log names its actions in words, not codes.
    await page.goto('/settings/audit');
    const actions = page.getByTestId('audit-action');
    await expect(actions.first()).toBeVisible();
    for (const row of await page.getByTestId('audit-row').all()) {
      const code = (await row.getAttribute('data-action'))!;
      await expect(row.getByTestId('audit-action')).toHaveText(text(zh.settings, `audit.actions.${code}`));
    }

    // API errors keep their code and explain themselves in Chinese.
    const err = await page.evaluate(async () => (await fetch('/api/workflows/wf_does_not_exist')).json());
    expect(err.error.code).toBe('WORKFLOW_NOT_FOUND');
    expect(err.error.message).toMatch(/[\u4e00-\u9fff]/);

    // /runs shows the run with a Chinese date.
    await page.goto('/runs');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('runs-table')).toContainText(/\d{4}年\d{1,2}月\d{1,2}日/);
    await shot(page, testInfo, 'runs-zh.png', '/runs (zh-CN)');

    // Switch to English: the same pages in English, and it stays English after a reload.
    await switchTo(page, 'en');
    await expect(page.getByTestId('runs-table')).not.toContainText(/[\u4e00-\u9fff]{2}年/);
    await editor.goto(id);
    await expect(page.getByTestId('save')).toContainText(text(en.editor, 'toolbar.save'));
    await expect(page.getByTestId('palette')).toContainText(text(en.nodes, 'llm.label'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('palette')).toContainText(text(en.canvas, 'palette.title'));
    const enErr = await page.evaluate(async () => (await fetch('/api/workflows/wf_does_not_exist')).json());
    expect(enErr.error.code).toBe('WORKFLOW_NOT_FOUND');
    expect(enErr.error.message).not.toMatch(/[\u4e00-\u9fff]/);
    await shot(page, testInfo, 'editor-en.png', 'editor (en, chosen in the menu)');

    await page.goto('/');
    await expect(page.getByTestId('new-workflow')).toContainText(text(en.workflowList, 'nav.newWorkflow'));
    await shot(page, testInfo, 'workflow-list-en.png', 'workflow list (en)');

    // And back to Chinese.
    await switchTo(page, 'zh-CN');
    await expect(page.getByTestId('new-workflow')).toContainText(text(zh.workflowList, 'nav.newWorkflow'));
    await shot(page, testInfo, 'workflow-list-zh-again.png', 'workflow list (back to zh-CN)');
  });
});
