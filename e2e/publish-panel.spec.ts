/**
 * Guarantees: from the editor's Publish panel a user publishes a workflow, reads the endpoint, creates an API key that
 * is shown once and works from an outside caller (plain fetch), copies a curl snippet with that endpoint and key,
 * publishes a second version, rolls back to the first (the endpoint then serves it), stores custom CORS origins that
 * survive reopening the panel, and revokes the key (the endpoint then answers 401). An invalid draft is refused with
 * the reason shown in the panel.
 */
import { expect, test } from '@playwright/test';
import { createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';
import { PublishPanelPage } from './pages/publish-panel.page';

const GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { label: 'Start', config: { inputs: [{ name: 'name', type: 'string', required: true }] } },
    },
    {
      id: 'greet',
      type: 'template',
      position: { x: 300, y: 0 },
      data: { label: 'Greet', config: { template: 'Hi {{inputs.name}}', format: 'text' } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 600, y: 0 },
      data: { label: 'End', config: { outputs: [{ name: 'greeting', value: '{{greet.output.text}}' }] } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'greet' },
    { id: 'e2', source: 'greet', target: 'end' },
  ],
};

/** An outside app's call: plain fetch, no cookies, no Playwright request context. */
async function callEndpoint(endpoint: string, key: string, inputs: Record<string, unknown>) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs }),
  });
  return { status: res.status, body: await res.json() };
}

test('publish, key, call, new version, rollback, CORS and revoke — all from the Publish panel', async ({
  page,
  request,
  baseURL,
}) => {
  const res = await request.post('/api/workflows', { data: { name: `E2E publish panel ${Date.now()}`, graph: GRAPH } });
  expect(res.status(), await res.text()).toBe(201);
  const workflowId: string = (await res.json()).id;
  const slug = `e2e-panel-${Date.now()}`;

  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const pub = new PublishPanelPage(page);
  await pub.open();

  // Nothing published yet: no versions, and the snippet has placeholders.
  await expect(pub.state()).toHaveText('Not published');
  await expect(pub.panel.getByTestId('versions-empty')).toBeVisible();
  expect(await pub.snippet('curl')).toContain('YOUR_API_KEY');

  // Publish → version 1 with its endpoint and OpenAPI document.
  await pub.publish({ slug, expectVersion: 1 });
  await expect(pub.state()).toHaveText('Published · v1');
  await expect(pub.panel.getByTestId('publish-slug')).toHaveText(slug);
  const endpoint = await pub.endpoint();
  expect(endpoint).toBe(`${baseURL}/api/v1/workflows/${slug}/run`);
  await expect(pub.panel.getByTestId('publish-openapi')).toHaveAttribute(
    'href',
    `${baseURL}/api/v1/workflows/${slug}/openapi.json`,
  );
  expect(await pub.listedVersions()).toEqual([1]);
  await expect(pub.version(1).getByTestId('version-current-badge')).toBeVisible();
  await expect(pub.version(1).getByTestId('version-node-count')).toHaveText('3 nodes');
  await expect(pub.version(1).getByTestId('version-changes')).toHaveAttribute('data-same', 'true');

  // A key, shown once in full; the list shows only its prefix.
  const key = await pub.createKey('e2e key');
  expect(key).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
  const row = pub.keyRow('e2e key');
  await expect(row.getByTestId('api-key-prefix')).toHaveText(`${key.slice(0, 10)}…`);
  await expect(row.getByTestId('api-key-last-used')).toHaveText('last used never');
  await expect(row).toHaveAttribute('data-revoked', 'false');

  // The key works for an outside caller.
  const first = await callEndpoint(endpoint, key, { name: 'Ada' });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body).toMatchObject({ status: 'succeeded', version: 1, outputs: { greeting: 'Hi Ada' } });

  // The snippets carry the endpoint, the new key and the start node's inputs.
  const curl = await pub.snippet('curl');
  expect(curl).toContain(`'${endpoint}'`);
  expect(curl).toContain(`Authorization: Bearer ${key}`);
  expect(curl).toContain('{"inputs":{"name":"…"}}');
  expect(await pub.snippet('js')).toContain(`"Bearer ${key}"`);
  expect(await pub.snippet('python')).toContain(`"Bearer ${key}"`);

  // Publish again without edits → version 2, listed first and current.
  await expect(pub.panel.getByTestId('publish-submit')).toHaveText('Publish new version');
  await pub.publish({ expectVersion: 2 });
  expect(await pub.listedVersions()).toEqual([2, 1]);
  await expect(pub.version(2)).toHaveAttribute('data-current', 'true');
  await expect(pub.version(1)).toHaveAttribute('data-current', 'false');
  await expect(pub.panel.getByTestId('version-current-badge')).toHaveCount(1);
  expect((await callEndpoint(endpoint, key, { name: 'Bo' })).body).toMatchObject({
    version: 2,
    outputs: { greeting: 'Hi Bo' },
  });

  // Roll back to version 1: the badge moves and the endpoint serves version 1.
  await pub.makeCurrent(1);
  await expect(pub.version(2)).toHaveAttribute('data-current', 'false');
  await expect(pub.version(1).getByTestId('version-current-badge')).toBeVisible();
  await expect(pub.panel.getByTestId('version-current-badge')).toHaveCount(1);
  await expect(pub.panel.getByTestId('publish-version')).toHaveAttribute('data-version', '1');
  expect((await callEndpoint(endpoint, key, { name: 'Cy' })).body).toMatchObject({
    version: 1,
    outputs: { greeting: 'Hi Cy' },
  });

  // CORS: a malformed origin is explained under the field; a valid list is stored.
  await pub.panel.getByTestId('cors-mode-custom').check();
  await pub.panel.getByTestId('cors-origins').fill('https://app.example.com\nnot an origin');
  await pub.panel.getByTestId('cors-save').click();
  await expect(pub.panel.getByTestId('cors-error')).toContainText('not an origin');
  await expect(pub.panel.getByTestId('cors-error')).toHaveAttribute('data-code', /.+/);
  await pub.setCustomCors(['https://app.example.com', 'http://localhost:5173']);

  // Reopened, the panel shows what is stored: custom origins, and the key is no longer shown in full.
  await pub.close();
  await pub.open();
  await expect(pub.panel.getByTestId('cors-mode-custom')).toBeChecked();
  await expect(pub.panel.getByTestId('cors-origins')).toHaveValue('https://app.example.com\nhttp://localhost:5173');
  const stored = await (await request.get(`/api/workflows/${workflowId}/publish`)).json();
  expect(stored.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  await expect(pub.panel.getByTestId('new-key')).toHaveCount(0);
  expect(await pub.snippet('curl')).toContain('YOUR_API_KEY');
  expect(await pub.snippet('curl')).not.toContain(key);

  // Revoke (after a confirmation): the key stays listed, greyed, and the endpoint refuses it.
  await pub.revokeKey('e2e key');
  await expect(pub.keyRow('e2e key').getByTestId('api-key-revoked')).toBeVisible();
  const revoked = await callEndpoint(endpoint, key, { name: 'Di' });
  expect(revoked.status).toBe(401);
  expect(revoked.body.error.code).toBe('UNAUTHORIZED');

  // Unpublish (after a confirmation): the versions stay, none is current.
  await pub.panel.getByTestId('unpublish').click();
  await pub.panel.getByTestId('unpublish-confirm').click();
  await expect(pub.state()).toHaveText('Unpublished');
  await expect(pub.panel.getByTestId('version-current-badge')).toHaveCount(0);
  expect(await pub.listedVersions()).toEqual([2, 1]);
});

test('publishing an invalid draft shows why, in the panel', async ({ page, request }) => {
  // Saved as a draft (semantic problems allowed): the template refers to a node that does not exist.
  const graph = structuredClone(GRAPH);
  graph.nodes[1].data.config = { template: 'Hi {{missing.output.text}}', format: 'text' };
  const workflowId = await createWorkflow(request, `E2E invalid publish ${Date.now()}`, graph);

  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const pub = new PublishPanelPage(page);
  await pub.open();
  await pub.panel.getByTestId('publish-submit').click();
  const error = pub.panel.getByTestId('publish-error');
  await expect(error).toContainText('cannot be published');
  await expect(pub.state()).toHaveText('Not published');
  await expect(pub.panel.getByTestId('versions-empty')).toBeVisible();
});

test(
  'an edit made in the editor is saved on opening the panel ' + 'and listed as the draft’s change since the version',
  async ({ page, request }) => {
    const workflowId = await createWorkflow(request, `E2E draft changes ${Date.now()}`, GRAPH);
    expect((await request.post(`/api/workflows/${workflowId}/publish`)).status()).toBe(201);

    const editor = new EditorPage(page);
    await editor.goto(workflowId);
    await editor.select('greet');
    await editor.field('template').fill('Hello {{inputs.name}}');

    // Opened before autosave had a chance: the panel saves first, so version 1 already differs from the draft.
    const pub = new PublishPanelPage(page);
    await pub.open();
    const changes = pub.version(1).getByTestId('version-changes');
    await expect(changes).toHaveAttribute('data-same', 'false');
    await expect(changes).toContainText('1 node changed');
    await changes.click();
    await expect(pub.version(1).getByTestId('version-changes-details')).toContainText('Changed: Greet (greet)');
    await expect(pub.panel.getByTestId('publish-draft-unchanged')).toHaveCount(0);

    // Publishing snapshots the edited draft: version 2 runs the new template.
    await pub.publish({ expectVersion: 2 });
    await expect(pub.version(2).getByTestId('version-changes')).toHaveAttribute('data-same', 'true');
    const stored = await (await request.get(`/api/workflows/${workflowId}/versions/2`)).json();
    expect(stored.graph.nodes.find((n: { id: string }) => n.id === 'greet').data.config.template).toBe(
      'Hello {{inputs.name}}',
    );
  },
);
