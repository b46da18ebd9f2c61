// Guarantees: n8n's Split Out (and Item Lists' split out items) imports as a List operator over the field it splits,
// approximated: the nodes after it read the first item ($json.x → output.first_record.x; a value item under its
// field or destination name is the item itself), the whole list is output.result, and the report says to use a Loop
// for every item. Like n8n, a field that is not a list splits as a list of that value; Remove Duplicates, Sort and
// Limit right after it are folded into it, as n8n applies them to the split items. Several fields at once stay
// dropped with the Loop advice. The graph validates and runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertN8n } from '@/lib/server/workflows/import/n8n';
import { createHarness, type Harness } from '@/test/support/harness';

const registry = createDefaultRegistry();
const errors = (graph: unknown) => validateGraph(graph, registry).errors;
const node = (name: string, type: string, parameters: object = {}, typeVersion = 1) => ({
  name,
  type,
  parameters,
  typeVersion,
});
const main = (...targets: string[]) => ({ main: [targets.map((n) => ({ node: n, index: 0 }))] });
const config = (r: ReturnType<typeof convertN8n>, id: string) =>
  r.graph.nodes.find((n) => n.id === id)!.data.config as Record<string, unknown>;

function workflow(split: object, type = 'n8n-nodes-base.splitOut') {
  return convertN8n({
    nodes: [
      node('Hook', 'n8n-nodes-base.webhook', { path: 'x', httpMethod: 'POST' }),
      node('Split', type, split),
      node('Pick', 'n8n-nodes-base.set', {
        values: {
          string: [
            { name: 'title', value: '={{ $json.title }}' },
            { name: 'tag', value: '={{ $json.tag }}' },
          ],
        },
      }),
    ],
    connections: { Hook: main('Split'), Split: main('Pick') },
  });
}

describe('n8n Split Out', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('is a List operator whose first item the next node reads, approximated with the Loop advice', async () => {
    const r = workflow({ fieldToSplitOut: 'body.posts' });
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'split')).toEqual({ input: '{{inputs.body.posts}}', wrapSingle: true });
    expect(config(r, 'pick').template).toContain('{{split.output.first_record.title}}');
    const item = r.report.approximated.find((e) => e.title === 'Split');
    expect(item?.why).toContain('Loop');
    const wf = await h.createWorkflow(r.graph as unknown as Graph);
    const run = await h.runToEnd(wf, { body: { posts: [{ title: 'first' }, { title: 'second' }] } });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const nodes = await h.store.getNodeRuns(run.id);
    expect(nodes.find((n) => n.nodeId === 'split')?.output).toMatchObject({
      result: [{ title: 'first' }, { title: 'second' }],
      first_record: { title: 'first' },
    });
    expect(JSON.stringify(nodes.find((n) => n.nodeId === 'pick')?.output)).toContain('first');
    // A field that is not a list splits as a list of that value, as in n8n.
    const one = await h.runToEnd(wf, { body: { posts: 'only post' } });
    expect(one.status, JSON.stringify(one.error)).toBe('succeeded');
  }, 60_000);

  it('reads a value item under its destination name, and Item Lists splits the same way', () => {
    const r = workflow(
      { operation: 'splitOutItems', fieldToSplitOut: 'body.tags', options: { destinationFieldName: 'tag' } },
      'n8n-nodes-base.itemLists',
    );
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'pick').template).toContain('{{split.output.first_record}}');
  });

  it('folds Remove Duplicates, Sort and Limit right after it into the List operator, as n8n applies them', async () => {
    const r = convertN8n({
      nodes: [
        node('Hook', 'n8n-nodes-base.webhook', { path: 'x', httpMethod: 'POST' }),
        node('Split', 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'body.links' }),
        node('Dedupe', 'n8n-nodes-base.removeDuplicates', { compare: 'selectedFields', fieldsToCompare: 'href' }),
        node('Sort', 'n8n-nodes-base.sort', { sortFieldsUi: { sortField: [{ fieldName: 'n', order: 'descending' }] } }),
        node('Limit', 'n8n-nodes-base.limit', { maxItems: 2 }),
        node('Pick', 'n8n-nodes-base.set', { values: { string: [{ name: 'href', value: '={{ $json.href }}' }] } }),
      ],
      connections: {
        Hook: main('Split'),
        Split: main('Dedupe'),
        Dedupe: main('Sort'),
        Sort: main('Limit'),
        Limit: main('Pick'),
      },
    });
    expect(errors(r.graph)).toEqual([]);
    expect(config(r, 'split')).toEqual({
      input: '{{inputs.body.links}}',
      wrapSingle: true,
      dedupe: { key: 'href' },
      sort: { key: 'n', order: 'desc' },
      limit: 2,
    });
    expect(r.report.mapped.map((e) => e.title)).toEqual(expect.arrayContaining(['Dedupe', 'Sort', 'Limit']));
    const wf = await h.createWorkflow(r.graph as unknown as Graph);
    const links = [
      { href: 'a', n: 1 },
      { href: 'b', n: 5 },
      { href: 'a', n: 9 },
      { href: 'c', n: 3 },
    ];
    const run = await h.runToEnd(wf, { body: { links } });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const split = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'split');
    expect(split?.output).toMatchObject({ result: [{ href: 'b' }, { href: 'c' }], first_record: { href: 'b' } });
  }, 60_000);

  it('splitting several fields at once stays dropped with the Loop advice', () => {
    const r = workflow({ fieldToSplitOut: 'body.a, body.b' });
    expect(errors(r.graph)).toEqual([]);
    expect(r.report.dropped.find((e) => e.title === 'Split')?.why).toContain('Loop');
  });
});
