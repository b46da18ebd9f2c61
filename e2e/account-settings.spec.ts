/**
 * Guarantees: a user changes their password at /settings/account (reached from the account menu) — a wrong current
 * password is explained, the change signs out their other sessions, and after signing out only the new password
 * works; a token is created for the workspace picked on the tokens page; owners find the audit log in the account
 * menu (newest entries first), and an editor is not offered it.
 */
import { expect, test } from '@playwright/test';
import { joinAs, passwordFor } from './support/accounts';
import { signIn } from './support/api';

test('change password: wrong current password explained, other sessions signed out, new one signs in', async ({
  browser,
  request,
}) => {
  const email = `pw-${Date.now()}@example.test`;
  const name = 'Paula Password';
  const oldPassword = passwordFor(name);
  const newPassword = 'a-brand-new-password-42';
  const user = await joinAs(browser, request, email, 'editor', name);
  await user.goto('/');

  // A second session of the same user (another device): the change signs it out.
  const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  await signIn(other.request, email, oldPassword);
  expect((await (await other.request.get('/api/auth/state')).json()).authenticated).toBe(true);

  await user.getByTestId('account-menu-button').click();
  await user.getByTestId('menu-account').click();
  await expect(user).toHaveURL(/\/settings\/account$/);
  await expect(user.getByTestId('password-submit')).toBeEnabled();

  await user.getByLabel('Current password').fill('not-my-password');
  await user.getByLabel('New password', { exact: true }).fill(newPassword);
  await user.getByLabel('Confirm new password').fill(newPassword);
  await user.getByTestId('password-submit').click();
  await expect(user.getByTestId('password-error')).toHaveText('the current password is wrong');
  await expect(user.getByTestId('password-error')).toHaveAttribute('data-path', 'currentPassword');

  await user.getByLabel('Current password').fill(oldPassword);
  await user.getByTestId('password-submit').click();
  await expect(user.getByTestId('password-changed')).toBeVisible();
  await expect(user.getByTestId('password-error')).toHaveCount(0);
  expect((await (await other.request.get('/api/auth/state')).json()).authenticated).toBe(false);
  await other.close();

  // This session stays signed in until it signs out; then only the new password opens it again.
  await user.reload();
  await expect(user.getByTestId('account-profile-email')).toHaveText(email);
  await user.getByTestId('account-menu-button').click();
  await user.getByTestId('sign-out').click();
  await expect(user).toHaveURL(/\/login/);
  await expect(user.getByTestId('auth-submit')).toBeEnabled();
  await user.getByLabel('Email').fill(email);
  await user.getByLabel('Password').fill(oldPassword);
  await user.getByRole('button', { name: 'Sign in' }).click();
  await expect(user.getByTestId('auth-form-error')).toBeVisible();
  await user.getByLabel('Password').fill(newPassword);
  await user.getByRole('button', { name: 'Sign in' }).click();
  await expect(user.getByTestId('account-menu-button')).toContainText(name);

  await user.context().close();
});

test('a token for the chosen workspace; the audit log for owners only', async ({ browser, page, request }) => {
  const email = `tok-${Date.now()}@example.test`;
  const name = 'Tom Tokens';
  const user = await joinAs(browser, request, email, 'editor', name);

  // The editor makes a workspace of their own and a token for it, from the tokens page.
  const created = await user.request.post('/api/workspaces', { data: { name: 'Side project' } });
  expect(created.status()).toBe(201);
  const side = (await created.json()).id as string;
  await user.goto('/settings/tokens');
  await expect(user.getByTestId('token-workspace').locator('option')).toHaveCount(2);
  await user.getByLabel('Token name').fill('ci for side project');
  await user.getByTestId('token-workspace').selectOption(side);
  await user.getByTestId('token-submit').click();
  await expect(user.getByTestId('new-token')).toHaveValue(/^pat_/);
  const row = user.getByTestId('token-row').filter({ hasText: 'ci for side project' });
  await expect(row).toHaveAttribute('data-workspace-id', side);
  await expect(row).toContainText('Side project');
  const tokens = await (await user.request.get('/api/auth/tokens')).json();
  expect(tokens.find((t: { name: string }) => t.name === 'ci for side project').workspaceId).toBe(side);

  // An editor is not offered the audit log.
  await user.getByTestId('account-menu-button').click();
  await expect(user.getByTestId('menu-account')).toBeVisible();
  await expect(user.getByTestId('menu-audit')).toHaveCount(0);
  await user.context().close();

  // The owner is, and sees the invitation they just made, newest first.
  await page.goto('/');
  await page.getByTestId('account-menu-button').click();
  await page.getByTestId('menu-audit').click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  await expect(page.locator('[data-testid="audit-row"][data-action="member.invited"]').first()).toContainText(
    'owner@example.test',
  );
  const times = await page
    .locator('[data-testid="audit-row"] time')
    .evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime')!)));
  expect(times.length).toBeGreaterThan(1);
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});
