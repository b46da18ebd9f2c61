/**
 * Guarantees, in Chromium on the production build: the editor, the knowledge page, the sign-in page and a chat page
 * work under the pages' Content-Security-Policy with no violation in the console; another site cannot frame the
 * editor, while a chat page is framed by the sites its chat app allows and refused by others; and a sign-in whose
 * `next` a browser would resolve to another site (`/\evil.example`) lands on PaiFlow's start page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/api';
import { OWNER } from './support/environment';
import { EditorPage } from './pages/editor.page';

const CHAT_GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { label: 'Start', config: { inputs: [{ name: 'message', type: 'string', required: true }] } },
    },
    {
      id: 'reply',
      type: 'llm',
      position: { x: 300, y: 0 },
      data: { label: 'Reply', config: { model: 'demo', userPrompt: '{{inputs.message}}' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 600, y: 0 },
      data: { label: 'End', config: { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'reply' },
    { id: 'e2', source: 'reply', target: 'end' },
  ],
};

/** Every CSP violation the pages of `context` report, as the browser reports it. */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeFunction('__cspViolation', (v: string) => seen.push(v));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      ),
    ),
  );
  return seen;
}

/**
 * Sites other than PaiFlow (which the suite serves at 127.0.0.1:<its port>): a small server of the test's own on
 * another port, reached as `localhost` (the shop) and as `127.0.0.1` (a stranger) — two origins, both on this machine,
 * as Chromium requires for a page that loads PaiFlow's scripts and frames.
 */
let other: Server;
const pages = new Map<string, string>();
let SHOP = '';
let EVIL = '';
test.beforeAll(async () => {
  other = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages.get(`${req.headers.host}`) ?? '<h1>nothing here</h1>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const { port } = other.address() as AddressInfo;
  SHOP = `http://localhost:${port}`;
  EVIL = `http://127.0.0.1:${port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => other?.close(resolve));
});

/** Opens `html` as the page of the site at `origin`. */
async function otherSite(page: Page, origin: string, html: string) {
  pages.set(new URL(origin).host, html);
  await page.goto(`${origin}/`);
}

/** Whether the frame `selector` shows `baseURL`'s page (a refused frame stays an error page). */
async function frameLoaded(page: Page, selector: string, testId: string) {
  return page
    .frameLocator(selector)
    .getByTestId(testId)
    .waitFor({ timeout: 8_000 })
    .then(() => true)
    .catch(() => false);
}

test('the editor, knowledge, sign-in and chat pages work under the CSP, with no violation', async ({
  browser,
  request,
}) => {
  const wf = await request.post('/api/workflows', { data: { name: `E2E CSP ${Date.now()}`, graph: CHAT_GRAPH } });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflowId: string = (await wf.json()).id;
  const slug = `e2e-csp-${Date.now()}`;
  expect((await request.post(`/api/workflows/${workflowId}/publish`, { data: { slug } })).status()).toBe(201);
  const chat = await request.patch(`/api/workflows/${workflowId}/publish`, {
    data: { chat: { enabled: true, access: 'public', title: 'CSP chat' } },
  });
  expect(chat.status(), await chat.text()).toBe(200);

  const owner = await browser.newContext();
  const violations = await watchViolations(owner);
  const page = await owner.newPage();
  const headers = (await page.goto(`/workflows/${workflowId}`))!.headers();
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  const editor = new EditorPage(page);
  await editor.waitReady();
  await page.getByTestId('tab-runs').click();
  await page.goto('/knowledge');
  await expect(page.getByRole('button', { name: 'Create' })).toBeVisible();

  await page.goto(`/chat/${slug}`);
  await expect(page.getByTestId('chat-page')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('chat-input').fill('hello under a CSP');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-answer').first()).toHaveAttribute('data-pending', 'false', { timeout: 30_000 });
  await expect(page.getByTestId('chat-answer').first()).toContainText('hello under a CSP');

  const signedOut = await browser.newContext({ storageState: SIGNED_OUT });
  const signedOutViolations = await watchViolations(signedOut);
  const login = await signedOut.newPage();
  await login.goto('/login');
  await expect(login.getByTestId('auth-submit')).toBeEnabled();

  expect([...violations, ...signedOutViolations]).toEqual([]);
  await owner.close();
  await signedOut.close();
});

test('another site cannot frame the editor; a chat page is framed only by the sites its app allows', async ({
  page,
  request,
  baseURL,
}) => {
  const wf = await request.post('/api/workflows', { data: { name: `E2E frame ${Date.now()}`, graph: CHAT_GRAPH } });
  const workflowId: string = (await wf.json()).id;
  const slug = `e2e-frame-${Date.now()}`;
  expect((await request.post(`/api/workflows/${workflowId}/publish`, { data: { slug } })).status()).toBe(201);
  const allowed = await request.patch(`/api/workflows/${workflowId}/publish`, {
    data: { chat: { enabled: true, access: 'public', title: 'Shop chat', embedOrigins: [SHOP] } },
  });
  expect(allowed.status(), await allowed.text()).toBe(200);

  const frame = (src: string) => `<html><body><h1>Another site</h1><iframe id="f" src="${src}"></iframe></body></html>`;
  // The editor, framed by another site: refused (the session cookie would otherwise sign the frame in).
  await otherSite(page, EVIL, frame(`${baseURL}/workflows/${workflowId}`));
  expect(await frameLoaded(page, '#f', 'editor')).toBe(false);

  // The chat page: framed by the shop the app names, embed script and all; refused elsewhere.
  await otherSite(
    page,
    SHOP,
    `<html><body><h1>Shop</h1><script src="${baseURL}/chat/${slug}/embed.js"></script></body></html>`,
  );
  await page.locator('[data-paiflow-chat-bubble]').click();
  await expect(page.frameLocator('[data-paiflow-chat-frame]').getByTestId('chat-title')).toHaveText('Shop chat');
  await otherSite(page, EVIL, frame(`${baseURL}/chat/${slug}`));
  expect(await frameLoaded(page, '#f', 'chat-title')).toBe(false);
});

test('a sign-in whose next would leave the site lands on the start page', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  // Should the browser go there, it finds a page that says so instead of a DNS error.
  await context.route('http://evil.example/**', (route) => route.fulfill({ contentType: 'text/html', body: 'evil' }));
  await page.goto('/login?next=%2F%5Cevil.example%2Fx');
  await expect(page.getByTestId('auth-submit')).toBeEnabled();
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('account-menu-button')).toContainText(OWNER.name);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe('/');
  await context.close();
});
