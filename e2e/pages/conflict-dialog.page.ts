import { expect, type Locator, type Page } from '@playwright/test';

/** The save-conflict dialog (components/editor/conflict-dialog.tsx) and the restored-draft banner above the canvas. */
export class ConflictDialogPage {
  readonly root: Locator;
  readonly merge: Locator;
  readonly keepMine: Locator;
  readonly keepMineConfirm: Locator;
  readonly keepMineWarning: Locator;
  readonly takeTheirs: Locator;
  readonly mergeBlocked: Locator;
  readonly draftBanner: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('conflict-dialog');
    this.merge = this.root.getByTestId('merge');
    this.keepMine = this.root.getByTestId('keep-mine');
    this.keepMineConfirm = this.root.getByTestId('keep-mine-confirm');
    this.keepMineWarning = this.root.getByTestId('keep-mine-warning');
    this.takeTheirs = this.root.getByTestId('take-theirs');
    this.mergeBlocked = this.root.getByTestId('merge-blocked');
    this.draftBanner = page.getByTestId('draft-banner');
  }

  /** The dialog is open on the server's version (not still loading it). */
  async waitOpen(timeout = 15_000) {
    await expect(this.root).toBeVisible({ timeout });
    await expect(this.root.locator('[data-phase="ready"]')).toBeVisible();
  }

  /** The list of what one side changed since the revision the editor was on. */
  changes(side: 'mine' | 'theirs'): Locator {
    return this.root.getByTestId(`changes-${side}`);
  }

  /** One listed change, by its kind (added, removed, changed, moved, edge, field) and node (or field) id. */
  change(side: 'mine' | 'theirs', kind: string, id: string): Locator {
    return this.changes(side).locator(`[data-testid="change"][data-kind="${kind}"][data-id="${id}"]`);
  }

  clashes(): Locator {
    return this.root.getByTestId('clash');
  }

  /** A clash by key: `node:<id>`, `edge:<id>`, `field:<name>`. */
  clash(key: string): Locator {
    return this.root.locator(`[data-testid="clash"][data-key="${key}"]`);
  }
}
