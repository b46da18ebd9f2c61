// Guarantees (issue 45): a Dify chatflow's conversation variables become the workflow's conversation variables (with
// their types and values as defaults), `{{#conversation.x#}}` becomes `{{conversation.x}}`, and its Variable
// Assigners (v1 write_mode, v2 items; in an iteration too) become variable_assigner nodes reported as mapped; an
// assigner that ends a path is followed by an End node answering the answers before it; an assigner that writes a
// loop's own variables has no twin and is dropped with why. Every such import validates.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { convertDify } from '@/lib/server/workflows/import/dify';
import type { ImportReport } from '@/lib/server/workflows/import/report';

const registry = createDefaultRegistry();
const corpus = (file: string) =>
  convertDify(readFileSync(path.join(__dirname, '../fixtures/import-corpus/dify', file), 'utf8'));
const entriesOf = (r: ImportReport, type: string) =>
  (['mapped', 'approximated', 'dropped'] as const).flatMap((outcome) =>
    r[outcome].filter((e) => e.type === type).map((e) => ({ ...e, outcome })),
  );
const configOf = (r: ReturnType<typeof corpus>, type: string) =>
  r.graph.nodes.filter((n) => n.type === type).map((n) => n.data.config);

describe('Dify conversation variables and assigners', () => {
  it('a v1 assigner (write_mode over-write) and a conversation variable read by the answer', () => {
    const r = corpus('dify--test_streaming_conversation_variables_v1_overwrite.yml');
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    expect(r.graph.conversationVariables).toEqual([{ name: 'conv_var', type: 'string', default: 'default' }]);
    expect(configOf(r, 'variable_assigner')).toEqual([
      { operations: [{ variable: 'conv_var', operation: 'set', value: '{{inputs.query}}' }] },
    ]);
    expect(JSON.stringify(configOf(r, 'end'))).toContain('{{conversation.conv_var}}');
    expect(entriesOf(r.report, 'assigner').map((e) => e.outcome)).toEqual(['mapped']);
    const start = configOf(r, 'start')[0] as { inputs: Array<{ name: string }> };
    expect(start.inputs.map((i) => i.name)).not.toContain('conversation_conv_var');
  });

  it('v2 items in an iteration, and typed variables of a real chatflow', () => {
    const r = corpus('dify--update-conversation-variable-in-iteration.yml');
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    expect(configOf(r, 'variable_assigner')).toEqual([
      { operations: [{ variable: 'answer', operation: 'set', value: '{{inputs.query}}' }] },
    ]);
    const memory = corpus('svcvit--记忆测试.yml');
    expect(validateGraph(memory.graph, registry).errors).toEqual([]);
    expect(memory.graph.conversationVariables).toContainEqual({
      name: 'mem',
      type: 'array[object]',
      default: [],
      description: 'SummaryMemory',
    });
    expect(entriesOf(memory.report, 'assigner').every((e) => e.outcome === 'mapped')).toBe(true);
  });

  it('an assigner that ends a path is followed by an End answering the answers before it', () => {
    const r = corpus('svcvit--旅行Demo.yml');
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    const tail = r.graph.edges.find((e) => r.graph.nodes.find((n) => n.id === e.target)?.type === 'end')!;
    expect(r.graph.nodes.find((n) => n.id === tail.source)?.type).toBe('variable_assigner');
    expect(configOf(r, 'variable_assigner')).toContainEqual({
      operations: [
        { variable: 'History', operation: 'append', value: expect.stringMatching(/^\{\{.+\.output\.text\}\}$/) },
      ],
    });
  });

  it("an assigner of a loop's own variables is dropped, saying why", () => {
    const r = corpus('dify--search_dify_from_2023_to_2025.yml');
    expect(validateGraph(r.graph, registry).errors).toEqual([]);
    const [entry] = entriesOf(r.report, 'assigner');
    expect(entry.outcome).toBe('dropped');
    expect(JSON.stringify(entry.why)).toMatch(/loop's own variables/);
  });
});
