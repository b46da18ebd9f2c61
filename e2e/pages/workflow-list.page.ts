import { expect, type Locator, type Page } from '@playwright/test';

export class WorkflowListPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/');
    await expect(this.page.getByTestId('workflow-list').or(this.page.getByTestId('empty-list'))).toBeVisible();
  }

  row(name: string): Locator {
    return this.page
      .getByTestId('workflow-row')
      .filter({ has: this.page.getByTestId('workflow-name').getByText(name, { exact: true }) });
  }

  rows(): Locator {
    return this.page.getByTestId('workflow-row');
  }

  /** Types into the search box; the list then shows only the workflows whose name or description contains `text`. */
  async search(text: string) {
    await this.page.getByTestId('workflow-search').fill(text);
  }

  /** Creates a blank workflow ("New workflow" → the gallery's "Blank workflow": Start → End) and returns its id. */
  async createNew(): Promise<string> {
    await this.page.getByTestId('new-workflow').click();
    await this.page.getByTestId('template-gallery').getByTestId('blank-workflow').click();
    await this.page.waitForURL(/\/workflows\/wf_/);
    return new URL(this.page.url()).pathname.split('/').pop()!;
  }

  async rename(from: string, to: string) {
    await this.row(from).getByTestId('rename-workflow').click();
    const input = this.page.getByTestId('rename-input');
    await input.fill(to);
    await input.press('Enter');
    await expect(this.row(to)).toBeVisible();
  }

  async duplicate(name: string) {
    await this.row(name).getByTestId('duplicate-workflow').click();
    await expect(this.row(`${name} (copy)`)).toBeVisible();
  }

  async delete(name: string) {
    await this.row(name).getByTestId('delete-workflow').click();
    await expect(this.page.getByTestId('confirm-delete')).toContainText(name);
    await this.page.getByTestId('confirm-delete-button').click();
    await expect(this.row(name)).toHaveCount(0);
  }

  async importFile(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.page.getByTestId('import-file').setInputFiles(file);
  }
}
