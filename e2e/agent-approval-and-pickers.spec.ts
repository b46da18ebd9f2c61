/**
 * Guarantees: an Agent's tools, knowledge bases and workflow tools are chosen from lists in the inspector (free text
 * only for patterns such as `mcp__github__*`), an unknown stored name stays visible and marked; and a tool call that
 * needs approval pauses the run with the call shown — an edit with invalid JSON sends nothing, a valid edit or a
 * rejection continues the same run, and the decision appears in the trace.
 */
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.page';
import { chain, createWorkflow, getEvents } from './support/api';

const agent = (config: Record<string, unknown>) =>
  chain([{ id: 'a1', type: 'agent', label: 'Helper', config: { task: 'Help', ...config } }], {
    outputs: [{ name: 'text', value: '{{a1.output.text}}' }],
  });

test('tools, knowledge bases and workflows are picked from lists', async ({ page, request }) => {
  const kb = await (
    await request.post('/api/knowledge-bases', { data: { name: `E2E picker KB ${Date.now()}` } })
  ).json();
  const childId = await createWorkflow(request, `E2E picker child ${Date.now()}`, chain([]));
  const id = await createWorkflow(request, 'E2E pickers', agent({ tools: ['calculator', 'no_such_tool'] }));
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.select('a1');

  const tools = editor.field('tools');
  await expect(tools.locator('[data-testid="picked"][data-value="no_such_tool"]')).toHaveAttribute(
    'data-invalid',
    'true',
  );
  await expect(tools.locator('[data-testid="picked"][data-value="calculator"]')).not.toHaveAttribute('data-invalid');
  await tools.getByTestId('field-tools-open').click();
  await tools.locator('[data-testid="pick-option"][data-value="current_time"]').check();
  await tools.getByTestId('field-tools-custom').fill('mcp__github__*');
  await tools.getByTestId('field-tools-custom-add').click();
  await tools.locator('[data-testid="picked"][data-value="no_such_tool"]').getByTestId('unpick').click();

  const kbs = editor.field('knowledgeBaseIds');
  await kbs.getByTestId('field-knowledgeBaseIds-open').click();
  await kbs.locator(`[data-testid="pick-option"][data-value="${kb.id}"]`).check();

  await editor.inspector.getByTestId('array-workflowTools').getByTestId('add-row').click();
  await editor.field('workflowTools[0].workflowId').selectOption(childId);

  const config = (await editor.graph()).nodes.find((n) => n.id === 'a1')!.data.config as Record<string, any>;
  expect(config.tools).toEqual(['calculator', 'current_time', 'mcp__github__*']);
  expect(config.knowledgeBaseIds).toEqual([kb.id]);
  expect(config.workflowTools[0].workflowId).toBe(childId);
});

test('a tool call waiting for approval is edited, then another is rejected, and the runs finish', async ({
  page,
  request,
}) => {
  const graph = agent({
    task: 'call:calculator {"expression":"6*7"}',
    tools: ['calculator'],
    toolApproval: ['calculator'],
  });
  const id = await createWorkflow(request, 'E2E tool approval', graph);
  const editor = new EditorPage(page);
  await editor.goto(id);

  const runId = await editor.run();
  await editor.expectRunStatus('waiting');
  const box = page.getByTestId('tool-approval');
  await expect(box).toHaveAttribute('data-tool', 'calculator');
  await expect(box.getByTestId('approval-arguments')).toContainText('6*7');

  // Invalid JSON is refused in the box: no answer leaves the page, the run still waits.
  const answers: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === `/api/runs/${runId}/answer`) answers.push(r.url());
  });
  await box.getByTestId('approval-edit').click();
  await box.getByTestId('approval-arguments-editor').fill('{"expression": ');
  await box.getByTestId('approval-edit-send').click();
  await expect(box.getByTestId('approval-error')).toBeVisible();
  expect(answers).toEqual([]);
  await editor.expectRunStatus('waiting');

  await box.getByTestId('approval-arguments-editor').fill('{"expression": "2+3"}');
  await box.getByTestId('approval-edit-send').click();
  await editor.expectRunStatus('succeeded');
  expect(answers).toHaveLength(1); // the valid edit is the only answer sent
  await expect(page.locator('[data-type="tool.approval"]')).toContainText('edited calculator');
  const events = await getEvents(request, runId);
  const decision = events.find((e) => e.type === 'tool.approval');
  expect(decision?.data).toMatchObject({ decision: 'edit', name: 'calculator', arguments: { expression: '2+3' } });

  const second = await editor.run();
  expect(second).not.toBe(runId);
  await editor.expectRunStatus('waiting');
  await page.getByTestId('approval-reject').click();
  await page.getByTestId('approval-reject-message').fill('not today');
  await page.getByTestId('approval-reject-send').click();
  await editor.expectRunStatus('succeeded');
  await expect(page.locator('[data-type="tool.approval"]')).toContainText('rejected calculator');
  const rejected = (await getEvents(request, second)).find((e) => e.type === 'tool.approval');
  expect(rejected?.data).toMatchObject({ decision: 'reject', message: 'not today' });
});
