/**
 * Guarantees: a run waiting for a person is not found only by chance. The top bar shows a "Waiting" badge with the
 * count of runs the signed-in user may answer; its list names the workflow and what the run waits on and opens the run
 * in the editor with its answer box; the editor of that workflow shows a notice that opens the waiting run; an
 * answered run leaves the inbox. A viewer, who cannot answer, gets no badge. The list links to /runs filtered to
 * waiting runs. Other specs run beside this one on the same workspace, so the badge is checked against the inbox the
 * page itself was sent (which runs the server counts is test/api/inbox-lists-the-waiting-runs-a-user-can-answer).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { joinAs } from './support/accounts';
import { chain, createWorkflow, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

async function waitingRun(request: APIRequestContext, workflowId: string, item: string): Promise<string> {
  const res = await request.post(`/api/workflows/${workflowId}/runs`, { data: { inputs: { item } } });
  expect(res.status(), await res.text()).toBe(202);
  const { runId } = (await res.json()) as { runId: string };
  await expect.poll(async () => (await getRun(request, runId)).status, { timeout: 30_000 }).toBe('waiting');
  return runId;
}

/** Opens the start page and returns the inbox its top bar was sent (GET /api/inbox without a workflow). */
async function openWithInbox(page: Page): Promise<{ count: number; runs: Array<{ id: string }> }> {
  const sent = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/inbox' && !url.searchParams.has('workflowId');
  });
  await page.goto('/');
  return (await sent).json();
}

test('a waiting run shows in the header inbox and in its editor, and leaves once answered', async ({
  page,
  request,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const name = `Inbox approval ${tag}`;
  const graph = chain(
    [
      {
        id: 'approve',
        type: 'human_input',
        label: 'Approve?',
        config: { prompt: 'Ship {{inputs.item}}?', answerType: 'boolean' },
      },
    ],
    { inputs: [{ name: 'item' }], outputs: [{ name: 'approved', value: '{{approve.output.answer}}' }] },
  );
  const id = await createWorkflow(request, name, graph);
  const runId = await waitingRun(request, id, `v${tag}`);

  // The badge in the top bar, on any page, counts the waiting runs; its list names the run's workflow and what it asks.
  const inbox = await openWithInbox(page);
  expect(inbox.runs.map((r) => r.id)).toContain(runId);
  await expect(page.getByTestId('inbox-count')).toHaveText(String(inbox.count));
  await page.getByTestId('inbox-button').click();
  const item = page.getByTestId('inbox-item').and(page.locator(`[data-run-id="${runId}"]`));
  await expect(item).toContainText(name);
  await expect(item).toContainText(`Approve? asks: Ship v${tag}?`);
  await expect(page.getByTestId('inbox-all')).toHaveAttribute('href', '/runs?status=waiting');

  // It opens the run in the editor, with the answer box.
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}\\?run=${runId}`));
  const editor = new EditorPage(page);
  await editor.waitReady();
  await expect(page.getByTestId('answer-prompt')).toHaveText(`Ship v${tag}?`);
  // The run on the canvas is the waiting one: no notice repeats it.
  await expect(page.getByTestId('waiting-runs-notice')).toHaveCount(0);

  // Opening the editor without the run: a notice says a run waits, and opens it.
  await editor.goto(id);
  const notice = page.getByTestId('waiting-runs-notice');
  await expect(notice).toContainText('A run of this workflow is waiting for an answer');
  await page.getByTestId('waiting-runs-open').click();
  await expect(page.getByTestId('trace-panel')).toHaveAttribute('data-run-id', runId);
  await expect(page.getByTestId('answer-prompt')).toHaveText(`Ship v${tag}?`);
  await expect(notice).toHaveCount(0);

  // A viewer cannot answer: no inbox for them.
  const viewerPage = await joinAs(browser, request, `viewer-inbox-${tag}@example.test`, 'viewer', 'Vic');
  await viewerPage.goto('/');
  await expect(viewerPage.getByTestId('account-menu-button')).toBeVisible();
  expect((await (await viewerPage.request.get('/api/inbox')).json()).count).toBe(0);
  await expect(viewerPage.getByTestId('inbox-button')).toHaveCount(0);
  await viewerPage.context().close();

  // Answered: the run goes on, and leaves the inbox.
  await editor.goto(id);
  await page.getByTestId('waiting-runs-open').click();
  await page.getByTestId('answer-yes').click();
  await editor.expectRunStatus('succeeded');
  const after = await openWithInbox(page);
  expect(after.runs.map((r) => r.id)).not.toContain(runId);
  if (after.count > 0) {
    await expect(page.getByTestId('inbox-count')).toHaveText(String(after.count));
    await page.getByTestId('inbox-button').click();
    await expect(page.getByTestId('inbox-item').first()).toBeVisible();
    await expect(page.getByTestId('inbox-item').and(page.locator(`[data-run-id="${runId}"]`))).toHaveCount(0);
  } else await expect(page.getByTestId('inbox-button')).toHaveCount(0);
});
