/**
 * Guarantees: a signed-out visitor is sent to the sign-in page and back; the owner's OpenAI-compatible credential is
 * listed masked, and the owner invites an editor through a link; the editor joins on the invitation page, builds a
 * workflow whose LLM node uses that credential (picked from the inspector's dropdown), saves and runs it — the model
 * is called with the credential's key, which never shows in the page; a viewer sees the workflow read-only — badge
 * shown, Save / Run / Publish disabled — and the server refuses the viewer's write with 403.
 */
import { expect, test } from '@playwright/test';
import { acceptInvite, invite, joinAs, signedOutPage } from './support/accounts';
import { e2eEnv, OWNER } from './support/environment';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';

const CREDENTIAL = `E2E OpenAI ${Date.now()}`;

test('owner invites an editor who uses a credential, and a viewer who can only look', async ({ browser }) => {
  // The longest journey of the suite (sign-in, invitation, a workflow built by hand, a run, a viewer): over the
  // default 90 s on a loaded 2-core machine.
  test.setTimeout(180_000);
  // Signed out: the gate sends the visitor to /login and back to where they were going.
  const owner = await signedOutPage(browser);
  await owner.goto('/settings/credentials');
  await expect(owner).toHaveURL(/\/login\?next=%2Fsettings%2Fcredentials/);
  await expect(owner.getByTestId('auth-submit')).toBeEnabled(); // hydrated: typing now is not lost
  await owner.getByLabel('Email').fill(OWNER.email);
  await owner.getByLabel('Password').fill('not-the-password');
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await expect(owner.getByTestId('auth-form-error')).toBeVisible();
  await owner.getByLabel('Password').fill(OWNER.password);
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await expect(owner).toHaveURL(/\/settings\/credentials$/);
  await expect(owner.getByTestId('account-menu-button')).toContainText(OWNER.name);

  // The owner's OpenAI-compatible credential, listed masked. Made over the API: the credential form is the subject of
  // credential-prices-price-the-runs-that-use-it.spec.ts and pick-a-provider-test-the-key-and-choose-a-model.spec.ts.
  const made = await owner.request.post('/api/credentials', {
    data: {
      name: CREDENTIAL,
      type: 'openai',
      // the local service's OpenAI-compatible chat
      data: { baseUrl: `${e2eEnv().slowURL}/v1`, apiKey: 'sk-e2e-test-key-0123456789' },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const credentialId = ((await made.json()) as { id: string }).id;
  await owner.reload();
  const row = owner.locator(`[data-testid="credential-row"][data-name="${CREDENTIAL}"]`);
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('sk-e2e-test-key-0123456789');

  // An editor joins through the link and builds a workflow whose LLM node uses the credential.
  const editorLink = await invite(owner, `editor-${Date.now()}@example.test`, 'editor');
  const editorPage = await acceptInvite(browser, editorLink, 'Eddie Editor');
  await expect(editorPage.getByTestId('account-menu-button')).toContainText('editor');
  const list = new WorkflowListPage(editorPage);
  await list.goto();
  const workflowId = await list.createNew();
  const editor = new EditorPage(editorPage);
  await editor.waitReady();
  // A blank workflow is Start → End; the LLM node goes between them.
  const [startId, endId] = await editor.nodeIds();
  const llmId = await editor.dragFromPalette('llm', await editor.below(startId, endId));
  await editor.deleteEdge(startId, endId);
  await editor.connect(startId, llmId);
  await editor.connect(llmId, endId);
  await editor.select(llmId);
  await editor.field('userPrompt').fill('Say hello');
  const picker = editor.field('credentialId');
  await expect(picker.locator('option', { hasText: CREDENTIAL })).toHaveCount(1);
  await picker.selectOption(credentialId);
  await editor.save();
  const stored = await (await editorPage.request.get(`/api/workflows/${workflowId}`)).json();
  const llm = stored.graph.nodes.find((n: { id: string }) => n.id === llmId);
  expect(llm.data.config.credentialId).toBe(credentialId);
  // The run calls the model with the credential's key (the local model names its last four characters).
  const runId = await editor.run();
  await editor.expectRunStatus('succeeded');
  await expect(editor.traceRows(llmId).getByTestId('trace-preview')).toContainText('e2e model answered with key …6789');
  const run = await (await editorPage.request.get(`/api/runs/${runId}`)).json();
  expect(JSON.stringify(run)).not.toContain('sk-e2e-test-key-0123456789');
  await expect(editorPage.locator('body')).not.toContainText('sk-e2e-test-key-0123456789');

  // A viewer opens it read-only, and the server refuses their write anyway.
  const viewerPage = await joinAs(browser, owner.request, `viewer-${Date.now()}@example.test`, 'viewer', 'Vera Viewer');
  const viewer = new EditorPage(viewerPage);
  await viewer.goto(workflowId);
  await expect(viewerPage.getByTestId('read-only-badge')).toHaveText('Read-only (viewer)');
  for (const id of ['save', 'run', 'publish']) await expect(viewerPage.getByTestId(id)).toBeDisabled();
  const put = await viewerPage.request.put(`/api/workflows/${workflowId}?draft=1`, { data: { name: 'Taken over' } });
  expect(put.status()).toBe(403);
  expect((await put.json()).error.code).toBe('FORBIDDEN');

  for (const p of [owner, editorPage, viewerPage]) await p.context().close();
});
