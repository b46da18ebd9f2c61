// Guarantees: Dify's variable-aggregator (and the old DSL's variable-assigner), list-operator and document-extractor
// import as PaiFlow's Variable aggregator, List operator and Document extractor, with references to their outputs
// (`output`, `<group>.output`, `result`, `first_record`, `text`) rewired; the graph validates, and it runs as in
// Dify: the aggregator gives the branch that ran, the document extractor reads the uploaded files and the list
// operator filters and limits their texts. The report says mapped where it behaves the same, approximated (and why)
// where it does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCpuPools } from '@/engine/cpu/pool';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertDify } from '@/lib/server/workflows/import/dify';
import type { ImportReport } from '@/lib/server/workflows/import/report';
import { createHarness, type Harness } from '@/test/support/harness';

const registry = createDefaultRegistry();
const problems = (graph: unknown) => validateGraph(graph, registry).errors;
const all = (r: ImportReport) => [...r.mapped, ...r.approximated, ...r.dropped];
const outcome = (r: ImportReport, id: string) =>
  (['mapped', 'approximated', 'dropped'] as const).find((k) => r[k].some((e) => e.id === id));

function dify(nodes: object[], links: Array<[string, string, string?]>) {
  const doc = {
    app: { name: 'T', mode: 'workflow' },
    kind: 'app',
    version: '0.3.1',
    workflow: {
      graph: {
        nodes,
        edges: links.map(([source, target, sourceHandle = 'source']) => ({ source, target, sourceHandle })),
      },
    },
  };
  return convertDify(JSON.stringify(doc));
}
const dn = (id: string, type: string, data: object = {}) => ({
  id,
  type: 'custom',
  data: { type, title: id, ...data },
  position: { x: 0, y: 0 },
});
const config = (g: { nodes: Array<{ id: string; data: { config: unknown } }> }, id: string) =>
  g.nodes.find((n) => n.id === id)?.data.config as Record<string, unknown>;

const workflow = () =>
  dify(
    [
      dn('s', 'start', {
        variables: [
          { variable: 'q', type: 'text-input', required: true },
          { variable: 'docs', type: 'file-list', required: true },
        ],
      }),
      dn('c', 'if-else', {
        cases: [
          {
            case_id: 'true',
            logical_operator: 'and',
            conditions: [{ variable_selector: ['s', 'q'], comparison_operator: 'is', value: 'a' }],
          },
        ],
      }),
      dn('ta', 'template-transform', { template: 'from a', variables: [] }),
      dn('tb', 'template-transform', { template: 'from b', variables: [] }),
      dn('agg', 'variable-aggregator', {
        variables: [
          ['ta', 'output'],
          ['tb', 'output'],
        ],
        output_type: 'string',
      }),
      dn('x', 'document-extractor', { variable_selector: ['s', 'docs'], is_array_file: true }),
      dn('lo', 'list-operator', {
        variable: ['x', 'text'],
        var_type: 'array[string]',
        item_var_type: 'string',
        filter_by: { enabled: true, conditions: [{ key: '', comparison_operator: 'contains', value: 'invoice' }] },
        extract_by: { enabled: false, serial: '1' },
        order_by: { enabled: false, key: '', value: 'asc' },
        limit: { enabled: true, size: 1 },
      }),
      dn('e', 'end', {
        outputs: [
          { variable: 'picked', value_selector: ['agg', 'output'] },
          { variable: 'doc', value_selector: ['lo', 'first_record'] },
          { variable: 'count', value_selector: ['lo', 'result'] },
        ],
      }),
    ],
    [
      ['s', 'c'],
      ['c', 'ta', 'true'],
      ['c', 'tb', 'false'],
      ['ta', 'agg'],
      ['tb', 'agg'],
      ['agg', 'x'],
      ['x', 'lo'],
      ['lo', 'e'],
    ],
  );

const file = (name: string, text: string) => ({ name, data: Buffer.from(text).toString('base64') });

describe('Dify list, aggregator and document nodes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await closeCpuPools();
  });

  it('import as the PaiFlow nodes, validate, and report what differs', () => {
    const r = workflow();
    expect(problems(r.graph)).toEqual([]);
    expect(config(r.graph, 'agg')).toEqual({
      groups: [{ name: 'group', variables: ['{{ta.output.text}}', '{{tb.output.text}}'] }],
    });
    expect(config(r.graph, 'lo')).toEqual({
      input: '{{x.output.text}}',
      filter: { logic: 'and', conditions: [{ op: 'contains', value: 'invoice' }] },
      limit: 1,
    });
    expect(config(r.graph, 'x')).toEqual({ files: '{{inputs.docs}}' });
    expect(config(r.graph, 'e').outputs).toEqual([
      { name: 'picked', value: '{{agg.output.output}}' },
      { name: 'doc', value: '{{lo.output.first_record}}' },
      { name: 'count', value: '{{lo.output.result}}' },
    ]);
    expect(outcome(r.report, 'agg')).toBe('mapped');
    expect(outcome(r.report, 'lo')).toBe('mapped');
    expect(outcome(r.report, 'x')).toBe('approximated');
    expect(all(r.report).find((e) => e.id === 'x')?.why).toContain('Excel');
  });

  it('run as in Dify: the branch that ran, the files read, filtered and limited', async () => {
    const wf = await h.createWorkflow(workflow().graph as unknown as Graph);
    const docs = [file('a.txt', 'a note'), file('b.md', 'invoice 7'), file('c.txt', 'invoice 9')];
    const runA = await h.runToEnd(wf, { q: 'a', docs });
    expect(runA.status, JSON.stringify(runA.error)).toBe('succeeded');
    expect(runA.outputs).toEqual({ picked: 'from a', doc: 'invoice 7', count: ['invoice 7'] });
    const runB = await h.runToEnd(wf, { q: 'b', docs: [] });
    expect(runB.status, JSON.stringify(runB.error)).toBe('succeeded');
    expect(runB.outputs).toMatchObject({ picked: 'from b', count: [] });
  }, 60_000);

  it('a grouped aggregator (or old variable-assigner) gives <group>.output; unknown operators are reported', () => {
    const r = dify(
      [
        dn('s', 'start', { variables: [{ variable: 'q', type: 'text-input', required: true }] }),
        dn('agg', 'variable-assigner', {
          advanced_settings: {
            group_enabled: true,
            groups: [
              { group_name: 'Group1', variables: [['s', 'q']] },
              { group_name: 'Group2', variables: [['s', 'q']] },
            ],
          },
        }),
        dn('lo', 'list-operator', {
          variable: ['s', 'q'],
          filter_by: { enabled: true, conditions: [{ key: '', comparison_operator: 'all of', value: ['x'] }] },
          order_by: { enabled: true, key: 'name', value: 'desc' },
          extract_by: { enabled: true, serial: '2' },
        }),
        dn('e', 'end', { outputs: [{ variable: 'g', value_selector: ['agg', 'Group2', 'output'] }] }),
      ],
      [
        ['s', 'agg'],
        ['agg', 'lo'],
        ['lo', 'e'],
      ],
    );
    expect(problems(r.graph)).toEqual([]);
    expect((config(r.graph, 'agg').groups as Array<{ name: string }>).map((g) => g.name)).toEqual(['Group1', 'Group2']);
    expect(config(r.graph, 'e').outputs).toEqual([{ name: 'g', value: '{{agg.output.Group2.output}}' }]);
    expect(config(r.graph, 'lo')).toMatchObject({ position: '2', sort: { key: 'name', order: 'desc' } });
    expect(config(r.graph, 'lo').filter).toBeUndefined();
    expect(outcome(r.report, 'lo')).toBe('approximated');
    expect(all(r.report).find((e) => e.id === 'lo')?.why).toContain('all of');
  });
});
