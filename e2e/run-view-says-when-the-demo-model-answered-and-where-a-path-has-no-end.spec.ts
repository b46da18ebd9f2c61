/**
 * Guarantees: the run view says, on the run and on each node, when the offline demo model answered instead of a real
 * model (no model server configured), in English and Chinese; the problems panel lists a branch that reaches no End
 * node as a warning (the workflow stays runnable), and a run down that branch shows NO_END_REACHED, not a success.
 */
import { expect, test } from '@playwright/test';
import { chain, createWorkflow } from './support/api';
import { EditorPage } from './pages/editor.page';

test('a run the demo model answered is labelled, on the run and on its node, in both languages', async ({
  browser,
  page,
  request,
}) => {
  const graph = chain([{ id: 'ask', type: 'llm', label: 'Ask', config: { userPrompt: 'Hello?' } }], {
    outputs: [{ name: 'answer', value: '{{ask.output.text}}' }],
  });
  const workflowId = await createWorkflow(request, `Demo label ${Date.now()}`, graph);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const runId = await editor.run();
  await editor.expectRunStatus('succeeded');
  await expect(page.getByTestId('run-demo-model')).toHaveText('Demo model answered — not a real LLM');
  await expect(editor.traceRows('ask').getByTestId('trace-demo-model')).toBeVisible();
  await expect(editor.traceRows('start').getByTestId('trace-demo-model')).toHaveCount(0);

  // The same run, opened later in a Chinese browser.
  const zh = await browser.newContext({ locale: 'zh-CN', storageState: await page.context().storageState() });
  try {
    const zhPage = await zh.newPage();
    await zhPage.goto(`/workflows/${workflowId}?run=${runId}`);
    await new EditorPage(zhPage).expectRunStatus('succeeded');
    await expect(zhPage.getByTestId('run-demo-model')).toHaveText('由演示模型回答——不是真实的大模型');
    await expect(zhPage.getByTestId('trace-demo-model')).toHaveText('演示模型');
  } finally {
    await zh.close();
  }
});

test('a branch that reaches no End node is a warning, and a run down it says NO_END_REACHED', async ({
  page,
  request,
}) => {
  const node = (id: string, type: string, config: Record<string, unknown>, x: number, y = 0) => ({
    id,
    type,
    position: { x, y },
    data: { label: id, config },
  });
  const graph = {
    nodes: [
      node('start', 'start', { inputs: [] }, 0),
      node(
        'route',
        'condition',
        { branches: [{ id: 'never', conditions: [{ left: 'a', op: 'eq', right: 'b' }] }] },
        300,
      ),
      node('answer', 'template', { template: 'yes' }, 600, -100),
      node('notify', 'template', { template: 'no' }, 600, 100),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{answer.output.text}}' }] }, 900),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'route' },
      { id: 'e2', source: 'route', target: 'answer', sourceHandle: 'never' },
      { id: 'e3', source: 'route', target: 'notify', sourceHandle: 'else' },
      { id: 'e4', source: 'answer', target: 'end' },
    ],
  };
  const workflowId = await createWorkflow(request, `No end ${Date.now()}`, graph);
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.waitValidated();
  await editor.openTab('problems');
  await expect(editor.problemCount()).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('problems-only-warnings')).toBeVisible();
  const warning = page.getByTestId('problem-warning');
  await expect(warning).toHaveCount(1);
  await expect(warning).toHaveAttribute('data-code', 'NO_END_ON_PATH');
  await expect(warning).toHaveAttribute('data-node-id', 'notify');

  await editor.run();
  await editor.expectRunStatus('failed');
  await expect(page.getByTestId('run-error')).toContainText('without reaching an End node');
});
