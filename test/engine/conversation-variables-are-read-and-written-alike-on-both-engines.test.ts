// Guarantees (issue 45): on either engine a run outside any conversation starts its conversation variables at their
// declared defaults, a variable assigner's writes are what later nodes read as {{conversation.name}}, and a resumed
// run does not execute the assigner again yet its later nodes still read what it wrote.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { createHarness, probeCalls, probeScript, resetProbes, type Harness } from '../support/harness';

const n = (id: string, type: string, config: Record<string, unknown> = {}): Graph['nodes'][number] => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});
const chain = (...ids: string[]) => ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id }));

const graph: Graph = {
  nodes: [
    n('start', 'start', { inputs: [{ name: 'name', type: 'string', required: true }] }),
    n('before', 'template', { template: '{{conversation.greeting}} {{conversation.count}}' }),
    n('set', 'variable_assigner', {
      operations: [
        { variable: 'greeting', value: 'hello {{inputs.name}}' },
        { variable: 'count', operation: 'add', value: 2 },
        { variable: 'seen', operation: 'append', value: '{{inputs.name}}' },
      ],
    }),
    n('flaky', 'probe'),
    n('after', 'template', { template: '{{conversation.greeting}} {{conversation.count}} {{conversation.seen}}' }),
    n('end', 'end', {
      outputs: [
        { name: 'before', value: '{{before.output.text}}' },
        { name: 'after', value: '{{after.output.text}}' },
      ],
    }),
  ],
  edges: chain('start', 'before', 'set', 'flaky', 'after', 'end'),
  conversationVariables: [
    { name: 'greeting', type: 'string', default: 'hi' },
    { name: 'count', type: 'number', default: 3 },
    { name: 'seen', type: 'array[string]' },
  ],
};

describe.each(['dag', 'langgraph'] as const)('conversation variables on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => resetProbes());

  it('later nodes read what the assigner wrote; a resume does not assign again and still reads it', async () => {
    const id = await h.createWorkflow(graph, 'vars', engine);
    probeScript.set('flaky', { fail: 1 });
    const failed = await h.runToEnd(id, { name: 'Ada' });
    expect(failed.status).toBe('failed');

    await h.runs.resume(failed.id);
    await h.runs.waitFor(failed.id);
    const run = (await h.store.getRun(failed.id))!;
    expect(run.status).toBe('succeeded');
    expect(run.outputs).toEqual({ before: 'hi 3', after: 'hello Ada 5 ["Ada"]' });
    const set = (await h.store.getNodeRuns(run.id)).find((r) => r.nodeId === 'set')!;
    expect(set).toMatchObject({ attempt: 1, output: { written: { greeting: 'hello Ada', count: 5, seen: ['Ada'] } } });
    expect(probeCalls.get('flaky')).toBe(2);

    const again = await h.runToEnd(id, { name: 'Bo' });
    expect(again.outputs).toEqual({ before: 'hi 3', after: 'hello Bo 5 ["Bo"]' });
  });
});
