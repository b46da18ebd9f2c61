// Guarantees (Dify's variable aggregator): after an if / else joins, each group's output is the value of the branch
// that ran, even when that value is '' (where a fallback chain a || b would pass over it); null when no branch gave
// one; `output` is the value itself with one group, and each group's value is under <name>.output. Real runs on the
// embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import type { NodeContext } from '@/engine/node-kit/define';
import { createHarness, type Harness } from '@/test/support/harness';
import { variableAggregatorConfigSchema, variableAggregatorNode, type VariableAggregatorConfig } from './index';

const at = (id: string) => ({ id, position: { x: 0, y: 0 } });

function branchGraph(groups: VariableAggregatorConfig['groups']): Graph {
  return {
    nodes: [
      { ...at('start'), type: 'start', data: { config: { inputs: [{ name: 'kind', type: 'string' }] } } },
      {
        ...at('c'),
        type: 'condition',
        data: { config: { branches: [{ id: 'a', conditions: [{ left: '{{inputs.kind}}', op: 'eq', right: 'a' }] }] } },
      },
      { ...at('ta'), type: 'template', data: { config: { template: 'from a' } } },
      { ...at('tb'), type: 'template', data: { config: { template: '' } } },
      { ...at('agg'), type: 'variable_aggregator', data: { config: { groups } } },
      {
        ...at('end'),
        type: 'end',
        data: { config: { outputs: [{ name: 'r', value: '{{agg.output}}' }] } },
      },
    ],
    edges: [
      { id: 'e0', source: 'start', target: 'c' },
      { id: 'e1', source: 'c', sourceHandle: 'a', target: 'ta' },
      { id: 'e2', source: 'c', sourceHandle: 'else', target: 'tb' },
      { id: 'e3', source: 'ta', target: 'agg' },
      { id: 'e4', source: 'tb', target: 'agg' },
      { id: 'e5', source: 'agg', target: 'end' },
    ],
  };
}

describe('variable aggregator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("gives the value of whichever branch ran, '' included", async () => {
    const wf = await h.createWorkflow(
      branchGraph([{ name: 'text', variables: ['{{ta.output.text}}', '{{tb.output.text}}'] }]),
    );
    const a = await h.runToEnd(wf, { kind: 'a' });
    expect(a.status).toBe('succeeded');
    expect(a.outputs).toEqual({ r: { output: 'from a', text: { output: 'from a' } } });
    const b = await h.runToEnd(wf, { kind: 'b' });
    expect(b.status).toBe('succeeded');
    expect(b.outputs).toEqual({ r: { output: '', text: { output: '' } } });
  }, 60_000);

  it('with several groups, gives each under its name and null where no reference has a value', () => {
    const config = variableAggregatorConfigSchema.parse({
      groups: [
        { name: 'answer', variables: ['{{x.output.text}}', '{{y.output.text}}'] },
        { name: 'score', variables: ['{{x.output.n}}', '{{y.output.n}}'] },
        { name: 'none', variables: ['{{z.output.text}}'] },
      ],
    });
    const scope = {
      inputs: {},
      nodes: { y: { status: 'succeeded', output: { text: 'hi', n: 0 } }, x: { status: 'skipped' } },
    };
    const ctx = { rawConfig: config, config, scope } as unknown as NodeContext<VariableAggregatorConfig>;
    return expect(variableAggregatorNode.execute(ctx)).resolves.toEqual({
      output: { answer: { output: 'hi' }, score: { output: 0 }, none: { output: null } },
    });
  });

  it('refuses a group named output, and two groups of one name', () => {
    const v = ['{{a.output.text}}'];
    expect(variableAggregatorConfigSchema.safeParse({ groups: [{ name: 'output', variables: v }] }).success).toBe(
      false,
    );
    const twice = {
      groups: [
        { name: 'g', variables: v },
        { name: 'g', variables: v },
      ],
    };
    expect(variableAggregatorConfigSchema.safeParse(twice).success).toBe(false);
  });
});
