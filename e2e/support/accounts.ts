/**
 * Other users for the account specs: the owner (a page signed in with the suite's owner session) invites someone
 * through the members page, and the invitee accepts the link in a signed-out context of their own
 * (accounts-and-roles.spec.ts, whose subject that is). A spec that only needs another user signed in makes them with
 * `joinAs`, over the API.
 */
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { SIGNED_OUT } from './api';

/** A page in a fresh context without the owner's session. */
export async function signedOutPage(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ storageState: SIGNED_OUT });
  return ctx.newPage();
}

/** The owner creates an invitation on the members page; returns its link. */
export async function invite(owner: Page, email: string, role: 'admin' | 'editor' | 'viewer'): Promise<string> {
  await owner.goto('/settings/members');
  await owner.getByLabel('Email').fill(email);
  await owner.getByLabel('Role', { exact: true }).selectOption(role);
  await owner.getByRole('button', { name: 'Create invitation' }).click();
  const link = owner.getByTestId('invite-link');
  await expect(link).toHaveValue(/\/invite\//);
  await owner.getByTestId('invite-link-copy').click();
  return link.inputValue();
}

/** The password acceptInvite chooses for `name`. */
export const passwordFor = (name: string) => `${name.toLowerCase().replace(/\W/g, '-')}-password`;

/** Accepts the invitation in a signed-out context as `name` (password: passwordFor(name)); the page is signed in. */
export async function acceptInvite(browser: Browser, url: string, name: string): Promise<Page> {
  const page = await signedOutPage(browser);
  await page.goto(url);
  await expect(page.getByTestId('auth-submit')).toBeEnabled(); // hydrated: typing now is not lost
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(passwordFor(name));
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByTestId('account-menu-button')).toContainText(name);
  return page;
}

/**
 * Set-up without the pages: the owner (`request`) invites `email` as `role` over the API and the invitee accepts it
 * over the API in a context of their own, as `name` (password: passwordFor(name)); returns a page of that context,
 * signed in.
 */
export async function joinAs(
  browser: Browser,
  request: APIRequestContext,
  email: string,
  role: 'admin' | 'editor' | 'viewer',
  name: string,
): Promise<Page> {
  const { workspaceId } = (await (await request.get('/api/auth/state')).json()) as { workspaceId: string };
  const invited = await request.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email, role } });
  expect(invited.status(), await invited.text()).toBe(201);
  const { token } = (await invited.json()) as { token: string };
  const ctx = await browser.newContext({ storageState: SIGNED_OUT });
  const accepted = await ctx.request.post('/api/auth/accept-invite', {
    data: { token, name, password: passwordFor(name) },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  return ctx.newPage();
}
