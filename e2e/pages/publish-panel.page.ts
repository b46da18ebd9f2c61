import { expect, type Locator, type Page } from '@playwright/test';

/** The editor's publish drawer (components/editor/publish): endpoint, versions, API keys, CORS, snippets. */
export class PublishPanelPage {
  readonly panel: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId('publish-panel');
  }

  /** Opens the drawer from the top bar and waits until its data is loaded. */
  async open() {
    await this.page.getByTestId('publish').click();
    await expect(this.panel).toHaveAttribute('data-loaded', 'true');
  }

  async close() {
    await this.panel.getByTestId('publish-close').click();
    await expect(this.panel).toBeHidden();
  }

  state(): Locator {
    return this.panel.getByTestId('publish-state');
  }

  /** Publishes the draft (the first time optionally under `slug`) and waits for the new version to be current. */
  async publish(opts: { slug?: string; expectVersion: number }) {
    if (opts.slug) await this.panel.getByTestId('publish-slug-input').fill(opts.slug);
    await this.panel.getByTestId('publish-submit').click();
    await expect(this.panel.getByTestId('publish-version')).toHaveAttribute('data-version', String(opts.expectVersion));
  }

  async endpoint(): Promise<string> {
    const text = (await this.panel.getByTestId('publish-endpoint').innerText()).trim();
    return text.replace(/^POST\s+/, '');
  }

  versionRows(): Locator {
    return this.panel.getByTestId('version-row');
  }

  version(n: number): Locator {
    return this.panel.locator(`[data-testid="version-row"][data-version="${n}"]`);
  }

  /** The version numbers listed, top to bottom. */
  async listedVersions(): Promise<number[]> {
    return this.versionRows().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-version'))));
  }

  async makeCurrent(n: number) {
    await this.version(n).getByTestId('version-make-current').click();
    await expect(this.version(n)).toHaveAttribute('data-current', 'true');
  }

  /** Creates a key and returns the full key from the one-time display. */
  async createKey(name: string): Promise<string> {
    await this.panel.getByTestId('api-key-name-input').fill(name);
    await this.panel.getByTestId('api-key-create').click();
    const shown = this.panel.getByTestId('new-key');
    await expect(shown).toBeVisible();
    await expect(shown).toContainText('will not be shown again');
    return shown.getByTestId('new-key-value').inputValue();
  }

  keyRow(name: string): Locator {
    return this.panel
      .getByTestId('api-key-row')
      .filter({ has: this.page.getByTestId('api-key-name').getByText(name, { exact: true }) });
  }

  async revokeKey(name: string) {
    const row = this.keyRow(name);
    await row.getByTestId('api-key-revoke').click();
    await row.getByTestId('api-key-revoke-confirm').click();
    await expect(row).toHaveAttribute('data-revoked', 'true');
  }

  async snippet(lang: 'curl' | 'js' | 'python'): Promise<string> {
    await this.panel.getByTestId(`usage-tab-${lang}`).click();
    const pre = this.panel.getByTestId('usage-snippet');
    await expect(pre).toHaveAttribute('data-lang', lang);
    return pre.innerText();
  }

  /** Chooses custom origins (one per line) and saves; waits for the save to land. */
  async setCustomCors(origins: string[]) {
    await this.panel.getByTestId('cors-mode-custom').check();
    await this.panel.getByTestId('cors-origins').fill(origins.join('\n'));
    await this.panel.getByTestId('cors-save').click();
    await expect(this.panel.getByTestId('cors-saved')).toHaveAttribute('data-mode', 'custom');
    await expect(this.panel.getByTestId('cors-save')).toBeDisabled();
  }
}
