/**
 * Guarantees: "Run this node" in the inspector runs just that node with its resolved input as edited (a stored
 * single-node run in which it is the only node that executes) and shows its output; a pinned output shows as a PIN
 * badge on its node, and a test run of the draft reuses the pin instead of executing the node: its output is the pin
 * (not what the new inputs would give) and its trace says it was pinned, with no node.started of its own (the run
 * panel lists it as a succeeded row saying it was not executed). A screenshot of each is kept as a test artifact.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow, getEvents } from './support/api';

test('run one node with an edited input, then pin a node and see test runs reuse it', async ({
  page,
  request,
}, testInfo) => {
  const graph = chain(
    [
      { id: 't1', type: 'template', label: 'Greet', config: { format: 'text', template: 'Hello {{inputs.message}}' } },
      { id: 't2', type: 'template', label: 'Shout', config: { format: 'text', template: '{{t1.output.text}}!' } },
    ],
    {
      inputs: [{ name: 'message' }],
      outputs: [
        { name: 'first', value: '{{t1.output.text}}' },
        { name: 'second', value: '{{t2.output.text}}' },
      ],
    },
  );
  const id = await createWorkflow(request, `Run one node ${Date.now().toString(36)}`, graph);
  const editor = new EditorPage(page);
  await editor.goto(id);
  const firstRun = await editor.run({ message: 'world' });
  await editor.expectRunStatus('succeeded');

  // Run only "Shout", with its resolved input edited by hand.
  await editor.select('t2');
  const panel = editor.inspector.getByTestId('run-node-panel');
  const input = panel.getByTestId('run-node-input');
  await expect(input).toHaveValue(/"template"/); // prefilled from the run on the canvas
  await input.fill('{ "format": "text", "template": "edited alone" }');
  await panel.getByTestId('run-node').click();
  const outcome = panel.getByTestId('run-node-outcome');
  await expect(outcome).toContainText('edited alone');
  await expect(outcome).toContainText('succeeded');

  // A stored run of its own in which only t2 executed (its upstream was seeded from the last run).
  const runs = await (await request.get(`/api/workflows/${id}/runs`)).json();
  const single = runs.find((r: { singleNode: { nodeId: string } | null }) => r.singleNode?.nodeId === 't2');
  expect(single, JSON.stringify(runs)).toBeTruthy();
  expect(single.id).not.toBe(firstRun);
  const singleEvents = await getEvents(request, single.id);
  expect(singleEvents.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).toEqual(['t2']);
  expect(singleEvents.find((e) => e.type === 'node.succeeded' && e.nodeId === 't2')?.data.output).toEqual({
    text: 'edited alone',
  });
  let path = testInfo.outputPath('run-one-node.png');
  await page.screenshot({ path });
  await testInfo.attach('run this node', { path, contentType: 'image/png' });

  // Pin "Greet"'s output from the first run: the node wears a PIN badge.
  await editor.select('t1');
  const pin = editor.inspector.getByTestId('pin-output');
  await expect(pin).toBeEnabled();
  await pin.click();
  await expect(editor.inspector.getByTestId('pinned-note')).toBeVisible();
  await expect(editor.node('t1').getByTestId('node-pinned')).toBeVisible();
  await editor.save();
  const stored = await (await request.get(`/api/workflows/${id}`)).json();
  expect(stored.graph.nodes.find((n: { id: string }) => n.id === 't1').data.pinned.output).toEqual({
    text: 'Hello world',
  });

  // A test run with another input: Greet is not executed, its pinned output stands in.
  const pinnedRun = await editor.run({ message: 'mars' });
  await editor.expectRunStatus('succeeded');
  const events = await getEvents(request, pinnedRun);
  const started = events.filter((e) => e.type === 'node.started').map((e) => e.nodeId);
  expect(started).not.toContain('t1');
  expect(started).toContain('t2');
  expect(events.find((e) => e.type === 'node.progress' && e.nodeId === 't1')?.data).toMatchObject({ pinned: true });
  expect(events.find((e) => e.type === 'node.succeeded' && e.nodeId === 't1')?.data).toMatchObject({
    attempt: 0,
    output: { text: 'Hello world' },
  });
  expect(events.find((e) => e.type === 'run.succeeded')?.data.outputs).toEqual({
    first: 'Hello world',
    second: 'Hello world!',
  });
  await expect(page.getByTestId('run-outputs')).toContainText('Hello world!');
  // The trace lists the pinned node as succeeded, saying it was not executed.
  const pinnedRow = editor.traceRows('t1');
  await expect(pinnedRow).toHaveAttribute('data-status', 'succeeded');
  await expect(pinnedRow.getByTestId('trace-preview')).toContainText('Hello world');
  await pinnedRow.getByRole('button').first().click();
  await expect(pinnedRow.getByTestId('trace-details')).toContainText('Pinned output reused: the node was not executed');
  await expect(editor.node('t1').getByTestId('node-status')).toHaveAttribute('data-status', 'succeeded');
  path = testInfo.outputPath('pinned-data-run.png');
  await page.screenshot({ path });
  await testInfo.attach('a test run reusing a pinned output', { path, contentType: 'image/png' });
});
