/**
 * Guarantees: a workflow built from a blank one (Start → End) by dragging palette items and connecting handles with the
 * mouse is stored exactly as the editor shows it and comes back identical after a reload; running it paints
 * every node succeeded and lists each node's output in the trace panel.
 */
import { expect, test } from '@playwright/test';
import { getRun, getWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';
import { WorkflowListPage } from './pages/workflow-list.page';

test.describe.serial('build, save, reload, run', () => {
  let workflowId = '';

  test('a workflow built by drag and drop survives a reload unchanged', async ({ page, request }) => {
    const list = new WorkflowListPage(page);
    await list.goto();
    workflowId = await list.createNew();
    const editor = new EditorPage(page);
    await editor.waitReady();
    // A blank workflow is a Start joined to an End: the template goes below, the direct edge is deleted.
    const [startId, endId] = await editor.nodeIds();
    expect([startId, endId]).toEqual(['start', 'end']);
    const templateId = await editor.dragFromPalette('template', await editor.below(startId, endId));
    expect(templateId).toBe('template_1');
    await editor.deleteEdge(startId, endId);
    await expect(editor.edges()).toHaveCount(0);

    await editor.connect(startId, templateId);
    await editor.connect(templateId, endId);
    await expect(editor.edges()).toHaveCount(2);

    // Start: declare a `name` input.
    await editor.select(startId);
    await editor.inspector.getByTestId('add-row').click();
    await editor.field('inputs[0].name').fill('name');

    // Template: `{{` offers inputs.name from the start node.
    await editor.select(templateId);
    await editor.field('label').fill('Greeting');
    const template = editor.field('template');
    await template.click();
    await template.pressSequentially('Hello {{');
    await expect(page.getByTestId('autocomplete-item').first()).toContainText('inputs.name');
    await page.getByTestId('autocomplete-item').filter({ hasText: 'inputs.name' }).click();
    await template.pressSequentially('!');
    await expect(template).toHaveValue('Hello {{inputs.name}}!');

    // End: map the template's text into the run's outputs; `{{` offers the upstream node.
    await editor.select(endId);
    await editor.inspector.getByTestId('add-row').click();
    await editor.field('outputs[0].name').fill('greeting');
    const value = editor.field('outputs[0].value');
    await value.click();
    await value.pressSequentially('{{templ');
    await page.getByTestId('autocomplete-item').filter({ hasText: 'template_1.output.text' }).click();
    await expect(value).toHaveValue('{{template_1.output.text}}');

    await editor.waitValidated();
    await expect(editor.problemCount()).toHaveAttribute('data-count', '0');
    await editor.save();

    const inEditor = await editor.graph();
    const stored = (await getWorkflow(request, workflowId)).graph;
    expect(stored).toEqual(inEditor);
    expect(stored.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'end', 'template_1']);
    expect(stored.edges).toEqual([
      expect.objectContaining({ source: 'start', target: 'template_1' }),
      expect.objectContaining({ source: 'template_1', target: 'end' }),
    ]);

    await page.reload();
    await editor.waitReady();
    expect(await editor.graph()).toEqual(stored);
    expect((await getWorkflow(request, workflowId)).graph).toEqual(stored);
    await expect(editor.nodes()).toHaveCount(3);
    await expect(editor.edges()).toHaveCount(2);
    await expect(editor.node('template_1').getByTestId('node-label')).toHaveText('Greeting');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  });

  test('running it turns every node succeeded, with outputs in the trace panel', async ({ page, request }) => {
    test.skip(!workflowId, 'needs the workflow built by the previous test');
    const editor = new EditorPage(page);
    await editor.goto(workflowId);
    const runId = await editor.run({ name: 'Ada' });
    await editor.expectRunStatus('succeeded');
    for (const id of ['start', 'template_1', 'end']) {
      await expect(editor.node(id)).toHaveAttribute('data-status', 'succeeded');
      await expect(editor.traceRows(id)).toHaveAttribute('data-status', 'succeeded');
    }
    await expect(editor.traceRows('template_1').getByTestId('trace-preview')).toHaveText('Hello Ada!');
    await expect(editor.traceRows('end').getByTestId('trace-preview')).toContainText('"greeting":"Hello Ada!"');
    await expect(page.getByTestId('run-outputs')).toContainText('Hello Ada!');

    // Expanding a row shows input and output.
    await editor.traceRows('template_1').getByRole('button').first().click();
    await expect(editor.traceRows('template_1').getByTestId('trace-output')).toContainText('Hello Ada!');

    const run = await getRun(request, runId);
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ greeting: 'Hello Ada!' });
  });
});
