// Guarantees (issue 45): a Dify parameter-extractor imports as a Parameter extractor node with the same parameters
// (types, descriptions, required, a select's options), query and instruction; `{{#node.name#}}` reads output.<name>;
// it is reported mapped, unless a node reads its __is_success / __reason (PaiFlow fails the node instead) or a type or
// name had to change. A real export with extractors validates, and a small one runs to `succeeded` offline with the
// values the demo model found.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertDify } from '@/lib/server/workflows/import/dify';
import type { ImportReport } from '@/lib/server/workflows/import/report';
import { createHarness, type Harness } from '@/test/support/harness';

const registry = createDefaultRegistry();
const corpus = (file: string) => readFileSync(path.join(__dirname, '../fixtures/import-corpus', file), 'utf8');
const outcomeOf = (r: ImportReport, nodeId: string) =>
  (['mapped', 'approximated', 'dropped'] as const).find((o) => r[o].some((e) => e.nodeIds.includes(nodeId)));
const entryOf = (r: ImportReport, nodeId: string) =>
  [...r.mapped, ...r.approximated, ...r.dropped].find((e) => e.nodeIds.includes(nodeId))!;

function dsl(endReads: string[][], extra: Record<string, unknown>[] = []) {
  return {
    app: { name: 'extract', mode: 'workflow' },
    workflow: {
      graph: {
        nodes: [
          { id: 's', data: { type: 'start', title: 'Start', variables: [{ variable: 'q', type: 'paragraph' }] } },
          {
            id: 'pe',
            data: {
              type: 'parameter-extractor',
              title: 'Extract',
              model: { name: 'gpt-4o', provider: 'openai', completion_params: { temperature: 0.1 } },
              query: ['s', 'q'],
              instruction: 'Prefer the first city. {{#s.q#}}',
              reasoning_mode: 'function_call',
              parameters: [
                { name: 'city', type: 'string', description: 'The city', required: true },
                { name: 'nights', type: 'number', description: 'Nights', required: false },
                { name: 'room', type: 'select', options: ['single', 'double'], description: '', required: false },
                { name: 'late', type: 'bool', description: 'Late arrival', required: false },
              ],
            },
          },
          ...extra,
          {
            id: 'e',
            data: {
              type: 'end',
              title: 'End',
              outputs: endReads.map((sel, i) => ({ variable: `o${i}`, value_selector: sel })),
            },
          },
        ],
        edges: [
          { source: 's', target: 'pe', sourceHandle: 'source' },
          { source: 'pe', target: extra.length ? String(extra[0].id) : 'e', sourceHandle: 'source' },
          ...(extra.length ? [{ source: String(extra[0].id), target: 'e', sourceHandle: 'source' }] : []),
        ],
      },
    },
  };
}

describe('Dify parameter extractor', () => {
  it('is a Parameter extractor node with the same parameters, query and instruction; outputs are output.<name>', () => {
    const r = convertDify(
      dsl([
        ['pe', 'city'],
        ['pe', 'nights'],
      ]),
    );
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    const node = r.graph.nodes.find((n) => n.type === 'parameter_extractor')!;
    expect(node.data.config).toEqual({
      model: 'gpt-4o',
      temperature: 0.1,
      query: '{{inputs.q}}',
      instruction: 'Prefer the first city. {{inputs.q}}',
      parameters: [
        { name: 'city', type: 'string', description: 'The city', required: true },
        { name: 'nights', type: 'number', description: 'Nights', required: false },
        { name: 'room', type: 'string', description: '', required: false, options: ['single', 'double'] },
        { name: 'late', type: 'boolean', description: 'Late arrival', required: false },
      ],
    });
    const end = r.graph.nodes.find((n) => n.type === 'end')!.data.config as { outputs: Array<{ value: string }> };
    expect(end.outputs.map((o) => o.value)).toEqual([`{{${node.id}.output.city}}`, `{{${node.id}.output.nights}}`]);
    expect(outcomeOf(r.report, node.id)).toBe('mapped');
  });

  it('is approximated, saying why, when a node reads __is_success', () => {
    const check = {
      id: 'ok',
      data: {
        type: 'template-transform',
        title: 'Check',
        template: '{{ s }}',
        variables: [{ variable: 's', value_selector: ['pe', '__is_success'] }],
      },
    };
    const r = convertDify(dsl([['ok', 'output']], [check]));
    const node = r.graph.nodes.find((n) => n.type === 'parameter_extractor')!;
    expect(outcomeOf(r.report, node.id)).toBe('approximated');
    expect(entryOf(r.report, node.id).why).toMatch(/__is_success/);
  });

  it('a real export with extractors imports them as Parameter extractor nodes that validate', () => {
    const r = convertDify(corpus('dify/svcvit--Deep-Researcher-On-Dify.yml'));
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    const extractors = r.graph.nodes.filter((n) => n.type === 'parameter_extractor');
    expect(extractors.length).toBeGreaterThan(0);
    const params = (extractors[0].data.config as { parameters: Array<{ name: string; type: string }> }).parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'Questions', type: 'array[string]' }));
  });

  describe('run offline', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness('pglite');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('succeeds with the values the demo model found', async () => {
      const r = convertDify(
        dsl([
          ['pe', 'city'],
          ['pe', 'nights'],
        ]),
      );
      const run = await h.runToEnd(await h.createWorkflow(r.graph as unknown as Graph), {
        q: 'city: Lisbon, 3 nights please',
      });
      expect(run.status).toBe('succeeded');
      expect(run.outputs).toEqual({ o0: 'Lisbon', o1: 3 });
    });
  });
});
