/**
 * Guarantees: from the editor's Triggers panel a user creates a signed (HMAC) webhook — its mapping starts as
 * `{{body.<input>}}` per Start input, its URL and its secret are shown (the secret once), the curl example carries
 * both — and an outside caller that signs the body as the curl example does starts a run with the mapped input,
 * which the panel then lists as the webhook's last run; a wrong signature gets 401. A schedule made from a preset in a
 * chosen time zone shows the server's next five fire times in that zone and the viewer's, and "Run now" starts a run
 * with its fixed inputs. An unpublished workflow is warned about, a webhook without authentication is warned about in
 * red, and an invalid cron expression is explained beside the cron field. A screenshot of the panel is kept.
 */
import { createHmac } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chain, createWorkflow, getRun } from './support/api';
import { EditorPage } from './pages/editor.page';

const GRAPH = chain(
  [{ id: 'greet', type: 'template', label: 'Greet', config: { template: 'Hi {{inputs.text}}', format: 'text' } }],
  {
    inputs: [{ name: 'text', type: 'string' }],
    outputs: [{ name: 'greeting', value: '{{greet.output.text}}' }],
  },
);

// A fixed browser zone, so the default zone and the "your time" column are known.
test.use({ timezoneId: 'Europe/Berlin' });

/** The editor's Triggers drawer (components/editor/triggers). */
class TriggersPanel {
  readonly panel: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('dialog', { name: 'Triggers' });
  }

  async open() {
    await this.page.getByRole('button', { name: 'Triggers', exact: true }).click();
    await expect(this.panel).toHaveAttribute('data-loaded', 'true');
  }

  form(name: 'New webhook' | 'New schedule' | 'Edit webhook' | 'Edit schedule'): Locator {
    return this.panel.getByRole('form', { name });
  }

  row(name: string): Locator {
    return this.panel.getByTestId('trigger-row').filter({ has: this.page.getByTestId('trigger-name').getByText(name) });
  }

  async backToList() {
    await this.panel.getByRole('button', { name: 'All triggers' }).click();
    await expect(this.panel.getByRole('button', { name: 'New webhook' })).toBeVisible();
  }
}

test('a signed webhook and a schedule, made and fired from the Triggers panel', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const workflowId = await createWorkflow(request, `E2E triggers ${Date.now()}`, GRAPH);
  const published = await request.post(`/api/workflows/${workflowId}/publish`);
  expect(published.status(), await published.text()).toBe(201);

  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const triggers = new TriggersPanel(page);
  await triggers.open();
  await expect(triggers.panel.getByTestId('triggers-published-note')).toContainText('published version');
  await expect(triggers.panel.getByTestId('triggers-unpublished')).toHaveCount(0);
  await expect(triggers.panel.getByTestId('triggers-empty')).toBeVisible();

  // A webhook: HMAC by default, one mapping row per Start input.
  await triggers.panel.getByRole('button', { name: 'New webhook' }).click();
  const hookForm = triggers.form('New webhook');
  await hookForm.getByLabel('Name', { exact: true }).fill('Issue hook');
  await expect(hookForm.getByLabel('HMAC signature (recommended)')).toBeChecked();
  await expect(hookForm.getByLabel('Template for input text')).toHaveValue('{{body.text}}');
  await hookForm.getByRole('button', { name: 'Create webhook' }).click();

  // Saved: the secret is shown this once, with the URL and a curl call that signs with it.
  const notice = triggers.panel.getByTestId('webhook-secret');
  await expect(notice).toContainText('will not be shown again');
  const secret = await triggers.panel.getByLabel('Webhook secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  const url = await triggers.panel.getByLabel('Webhook URL').inputValue();
  expect(url).toMatch(new RegExp(`^${baseURL}/api/hooks/hk_[A-Za-z0-9_-]+$`));
  const curl = await triggers.panel.getByTestId('webhook-curl').innerText();
  expect(curl).toContain(`curl -X POST '${url}'`);
  expect(curl).toContain(`SECRET='${secret}'`);
  expect(curl).toContain(`X-Signature: sha256=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"`);
  expect(curl).toContain(`BODY='{"text":"…"}'`);

  // An outside caller (plain fetch, no cookies) signs the raw body as the curl call does.
  const body = JSON.stringify({ text: 'from the hook' });
  const wrong = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': `sha256=${'0'.repeat(64)}` },
    body,
  });
  expect(wrong.status).toBe(401);
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const fired = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': `sha256=${signature}` },
    body,
  });
  expect(fired.status, await fired.clone().text()).toBe(202);
  const { runId: hookRunId } = (await fired.json()) as { runId: string };
  await expect.poll(async () => (await getRun(request, hookRunId)).status).toBe('succeeded');
  expect((await getRun(request, hookRunId)).outputs).toEqual({ greeting: 'Hi from the hook' });

  // The list shows it as the webhook's last run, linked to the run in the editor.
  await triggers.backToList();
  await triggers.panel.getByTestId('triggers-refresh').click();
  const hookRow = triggers.row('Issue hook');
  await expect(hookRow.getByTestId('trigger-type')).toHaveText('webhook');
  await expect(hookRow.getByRole('switch', { name: 'Enabled' })).toHaveAttribute('aria-checked', 'true');
  const lastRun = hookRow.getByTestId('trigger-last-run-link');
  await expect(lastRun).toHaveAttribute('data-run-id', hookRunId);
  await expect(lastRun).toHaveAttribute('href', `/workflows/${workflowId}?run=${hookRunId}`);
  await expect(hookRow.getByTestId('trigger-last-run-status')).toHaveText('succeeded');
  // Reopened, the secret is not shown any more; the curl call has a placeholder instead.
  await hookRow.getByRole('button', { name: 'Edit Issue hook' }).click();
  await expect(triggers.panel.getByTestId('webhook-secret')).toHaveCount(0);
  await expect(triggers.panel.getByTestId('webhook-curl')).toContainText("SECRET='YOUR_WEBHOOK_SECRET'");
  await triggers.backToList();

  // A schedule: a preset, a zone other than the browser's, fixed inputs, "skip" for missed runs.
  await triggers.panel.getByRole('button', { name: 'New schedule' }).click();
  const scheduleForm = triggers.form('New schedule');
  await expect(scheduleForm.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await scheduleForm.getByLabel('Name', { exact: true }).fill('Morning digest');
  await scheduleForm.getByRole('button', { name: 'Weekdays 09:00' }).click();
  await expect(scheduleForm.getByLabel('Cron expression')).toHaveValue('0 9 * * 1-5');
  await scheduleForm.getByLabel('Time zone').fill('Asia/Shanghai');
  await scheduleForm.getByLabel('Fixed inputs (JSON)').fill('{"text": "scheduled"}');
  await scheduleForm.getByLabel('Skip').check();
  await scheduleForm.getByRole('button', { name: 'Create schedule' }).click();

  // The next five fire times are the server's, 09:00 in Shanghai and shown in Berlin time too.
  const nextRuns = triggers.panel.getByRole('list', { name: 'Next run times' });
  await expect(nextRuns.getByRole('listitem')).toHaveCount(5);
  const listed = await nextRuns.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
  const stored = (await (await request.get(`/api/workflows/${workflowId}/triggers`)).json()) as Array<{
    type: string;
    nextRuns?: string[];
    misfire?: string;
    timezone?: string;
  }>;
  const schedule = stored.find((t) => t.type === 'schedule')!;
  expect(schedule).toMatchObject({ timezone: 'Asia/Shanghai', misfire: 'skip' });
  expect(listed).toEqual(schedule.nextRuns);
  for (const item of await nextRuns.getByRole('listitem').all()) {
    await expect(item).toContainText('09:00');
    await expect(item).toContainText(/0[23]:00 your time/); // Berlin is UTC+1 in winter, UTC+2 in summer
  }

  // "Run now" starts a run with the fixed inputs, linked from the panel.
  await triggers.panel.getByRole('button', { name: 'Run now' }).click();
  const started = triggers.panel.getByTestId('schedule-status').getByTestId('trigger-last-run-link').last();
  await expect(started).toHaveAttribute('data-run-id', /.+/);
  const scheduleRunId = (await started.getAttribute('data-run-id'))!;
  await expect.poll(async () => (await getRun(request, scheduleRunId)).status).toBe('succeeded');
  const scheduleRun = await getRun(request, scheduleRunId);
  expect(scheduleRun.inputs).toEqual({ text: 'scheduled' });
  expect(scheduleRun.outputs).toEqual({ greeting: 'Hi scheduled' });

  // Both are listed; the schedule with its zone and next runs.
  await triggers.backToList();
  await expect(triggers.panel.getByTestId('trigger-row')).toHaveCount(2);
  const scheduleRow = triggers.row('Morning digest');
  await expect(scheduleRow).toContainText('0 9 * * 1-5 in Asia/Shanghai');
  await expect(scheduleRow.getByTestId('next-run')).toHaveCount(5);

  const path = testInfo.outputPath('triggers-panel.png');
  await page.screenshot({ path });
  await testInfo.attach('triggers panel', { path, contentType: 'image/png' });
});

test('warnings: unpublished workflow, a webhook without authentication, an invalid cron beside its field', async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, `E2E triggers warnings ${Date.now()}`, GRAPH);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const triggers = new TriggersPanel(page);
  await triggers.open();
  await expect(triggers.panel.getByTestId('triggers-unpublished')).toContainText('not published');

  await triggers.panel.getByRole('button', { name: 'New webhook' }).click();
  const hookForm = triggers.form('New webhook');
  await expect(hookForm.getByTestId('webhook-no-auth-warning')).toHaveCount(0);
  await hookForm.getByLabel('None').check();
  await expect(hookForm.getByTestId('webhook-no-auth-warning')).toContainText('Anyone with the URL can start runs');
  await triggers.backToList();

  await triggers.panel.getByRole('button', { name: 'New schedule' }).click();
  const scheduleForm = triggers.form('New schedule');
  await scheduleForm.getByLabel('Cron expression').fill('every day at nine');
  await scheduleForm.getByRole('button', { name: 'Create schedule' }).click();
  await expect(scheduleForm.getByLabel('Cron expression')).toHaveAccessibleDescription(/not a valid cron expression/);
  await expect(scheduleForm.getByTestId('schedule-form-error')).toHaveCount(0);
  expect(await (await request.get(`/api/workflows/${workflowId}/triggers`)).json()).toEqual([]);
});
