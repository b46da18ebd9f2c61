/**
 * Guarantees: on the production build, a workflow published with its chat app on (from the Publish panel, which then
 * shows the embed `<script>`) can be talked to at /chat/:slug by a visitor who is not signed in: three turns stream
 * in, and the third answer uses the first turn (the offline demo model names it: the earlier turns reached the LLM
 * node through the Start input `history`). The conversation is kept in this browser's list, a reload reopens it
 * with its six messages; a 👎 with a comment on an answer shows on that turn's run in the editor; a chat behind an
 * access code asks for it and refuses a wrong one; and the embed script adds a bubble that opens the chat in an iframe.
 */
import { expect, test, type Page } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { PublishPanelPage } from './pages/publish-panel.page';

const GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: {
        label: 'Start',
        config: {
          inputs: [
            { name: 'message', type: 'string', required: true },
            { name: 'history', type: 'array', required: false, default: [] },
          ],
        },
      },
    },
    {
      id: 'reply',
      type: 'llm',
      position: { x: 300, y: 0 },
      data: {
        label: 'Reply',
        config: { model: 'demo', userPrompt: '{{inputs.message}}', history: '{{inputs.history}}', temperature: 0 },
      },
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

/** Sends a message on the chat page and waits until its answer has finished streaming; returns the answer. */
async function say(page: Page, text: string, nth: number) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  const answer = page.getByTestId('chat-answer').nth(nth);
  await expect(answer).toHaveAttribute('data-pending', 'false', { timeout: 30_000 });
  await expect(page.locator('[data-role="assistant"]').nth(nth)).toHaveAttribute('data-message-id', /^msg_/);
  return answer;
}

test('a visitor has a three-turn conversation whose third answer uses the first turn', async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  const res = await request.post('/api/workflows', { data: { name: `E2E chat ${Date.now()}`, graph: GRAPH } });
  expect(res.status(), await res.text()).toBe(201);
  const workflowId: string = (await res.json()).id;
  const slug = `e2e-chat-${Date.now()}`;
  expect((await request.post(`/api/workflows/${workflowId}/publish`, { data: { slug } })).status()).toBe(201);

  // The Publish panel turns the chat app on and shows the page and the embed snippet.
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const pub = new PublishPanelPage(page);
  await pub.open();
  const section = pub.panel.getByTestId('publish-chat-section');
  await section.getByTestId('chat-title').fill('Trip helper');
  await section.getByTestId('chat-welcome').fill('Hello! Ask me about your trip.');
  // A controlled checkbox: it shows the saved state once the PATCH has answered.
  await section.getByTestId('chat-enabled').click();
  await expect(section.getByTestId('chat-enabled')).toBeChecked();
  await expect(section.getByTestId('chat-embed-snippet')).toHaveText(
    `<script src="${baseURL}/chat/${slug}/embed.js" async></script>`,
  );
  await expect(section.getByTestId('chat-url')).toHaveAttribute('href', `${baseURL}/chat/${slug}`);

  // A visitor who is not signed in.
  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const chat = await visitor.newPage();
  await chat.goto(`/chat/${slug}`);
  await expect(chat.getByTestId('chat-title')).toHaveText('Trip helper');
  await expect(chat.getByTestId('chat-welcome')).toHaveText('Hello! Ask me about your trip.');
  await expect(chat.getByTestId('chat-page')).toHaveAttribute('data-ready', 'true');

  const first = await say(chat, 'I am planning a trip to Lisbon', 0);
  await expect(first).toContainText('You said: "I am planning a trip to Lisbon"');
  await say(chat, 'Any tips for food?', 1);
  const third = await say(chat, 'Where was I going?', 2);
  await expect(third).toContainText('You said: "Where was I going?"');
  await expect(third).toContainText('Earlier you said: "I am planning a trip to Lisbon"');

  // 👎 with a comment on the third answer.
  const feedback = chat.getByTestId('chat-feedback').nth(2);
  await feedback.getByTestId('feedback-down').click();
  await feedback.getByTestId('feedback-comment').fill('Should have suggested pastéis de nata');
  await feedback.getByTestId('feedback-send').click();
  await expect(feedback.getByTestId('feedback-thanks')).toBeVisible();
  await chat.screenshot({ path: testInfo.outputPath('chat-three-turns.png'), fullPage: true });

  // A reload reopens the conversation, which is in this browser's list; "New chat" and the list switch between them.
  await chat.reload();
  await expect(chat.getByTestId('chat-page')).toHaveAttribute('data-ready', 'true');
  await expect(chat.getByTestId('chat-message')).toHaveCount(6);
  await expect(chat.getByTestId('chat-conversation')).toHaveCount(1);
  await expect(chat.getByTestId('chat-conversation')).toHaveText('I am planning a trip to Lisbon');
  await chat.getByTestId('chat-new').click();
  await expect(chat.getByTestId('chat-message')).toHaveCount(0);
  await chat.getByTestId('chat-conversation').click();
  await expect(chat.getByTestId('chat-message')).toHaveCount(6);
  await expect(chat.getByTestId('chat-feedback').nth(2)).toHaveAttribute('data-rating', 'down');

  // The third turn's run shows the feedback in the editor's run view; its inputs name the history.
  const runs = await (await request.get(`/api/workflows/${workflowId}/runs`)).json();
  const list = (Array.isArray(runs) ? runs : runs.runs) as Array<{ id: string }>;
  const runId = list[0].id;
  const run = await (await request.get(`/api/runs/${runId}`)).json();
  expect(run.inputs.message).toBe('Where was I going?');
  // The history stays in the conversation: the run keeps a reference to its first four messages.
  expect(run.inputs.history).toMatchObject({ $ref: 'chat-history', fromSeq: 1, toSeq: 4 });
  await page.goto(`/workflows/${workflowId}?run=${runId}`);
  await editor.waitReady();
  await expect(page.getByTestId('trace-panel')).toHaveAttribute('data-run-id', runId);
  const shown = page.getByTestId('run-chat-feedback');
  await expect(shown.getByTestId('run-chat-feedback-comment')).toHaveText('Should have suggested pastéis de nata');
  await expect(shown.locator('[data-rating="down"]')).toBeVisible();

  // The embed: a bubble on another page opens the chat in an iframe.
  const host = await visitor.newPage();
  await host.goto(`${baseURL}/api/health`); // any page of another document; the script only needs a body
  await host.setContent(
    `<html><body><h1>My site</h1><script src="${baseURL}/chat/${slug}/embed.js"></script></body></html>`,
  );
  await host.locator('[data-paiflow-chat-bubble]').click();
  const frame = host.frameLocator('[data-paiflow-chat-frame]');
  await expect(frame.getByTestId('chat-title')).toHaveText('Trip helper');
  await visitor.close();
});

test('a chat behind an access code asks for it and refuses a wrong one', async ({ request, browser }) => {
  const res = await request.post('/api/workflows', { data: { name: `E2E chat code ${Date.now()}`, graph: GRAPH } });
  const workflowId: string = (await res.json()).id;
  const slug = `e2e-chat-code-${Date.now()}`;
  expect((await request.post(`/api/workflows/${workflowId}/publish`, { data: { slug } })).status()).toBe(201);
  const patch = await request.patch(`/api/workflows/${workflowId}/publish`, {
    data: { chat: { enabled: true, access: 'code', code: 'sesame-42', title: 'Members only' } },
  });
  expect(patch.status(), await patch.text()).toBe(200);

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const chat = await visitor.newPage();
  await chat.goto(`/chat/${slug}`);
  await chat.getByTestId('chat-code-input').fill('wrong-code');
  await chat.getByTestId('chat-code-submit').click();
  await expect(chat.getByTestId('chat-code-error')).toBeVisible();
  await chat.getByTestId('chat-code-input').fill('sesame-42');
  await chat.getByTestId('chat-code-submit').click();
  await expect(chat.getByTestId('chat-title')).toHaveText('Members only');
  const answer = await say(chat, 'hello there', 0);
  await expect(answer).toContainText('You said: "hello there"');
  await visitor.close();
});
