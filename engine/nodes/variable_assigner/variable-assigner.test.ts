// Guarantees (issue 45): the variable assigner's operations do what Dify's do on each declared type (set, clear,
// append, extend, remove first/last, + - * /), read a value that came through a template as text as the declared type,
// and refuse what does not fit with a code and a config path; the validator checks the declarations (unknown keys,
// names used twice, defaults of the wrong type), each operation against them, and `{{conversation.x}}` refs.
import { describe, expect, it } from 'vitest';
import { PaiError } from '../../errors';
import type { ConversationVariable } from '../../template/conversation-variables';
import { validateGraph } from '../../graph/validate';
import { createDefaultRegistry } from '../registry';
import { apply, type Operation } from './operations';

const v = (name: string, type: ConversationVariable['type']): ConversationVariable => ({ name, type });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof PaiError ? e.code : String(e);
  }
  return undefined;
}

describe('variable assigner operations', () => {
  const run = (type: ConversationVariable['type'], current: unknown, op: Operation, value?: unknown) =>
    apply(v('x', type), current, op, value, 'config.operations[0]');

  it('applies each operation to the types it fits', () => {
    expect(run('string', 'a', 'set', 'b')).toBe('b');
    expect(run('string', 'a', 'clear')).toBe('');
    expect(run('object', { a: 1 }, 'clear')).toEqual({});
    expect(run('array[string]', ['a'], 'append', 'b')).toEqual(['a', 'b']);
    expect(run('array[number]', [1], 'extend', [2, 3])).toEqual([1, 2, 3]);
    expect(run('array[object]', [{ a: 1 }, { b: 2 }], 'remove_first')).toEqual([{ b: 2 }]);
    expect(run('array[string]', ['a', 'b'], 'remove_last')).toEqual(['a']);
    expect(run('number', 2, 'add', 3)).toBe(5);
    expect(run('number', 2, 'subtract', 3)).toBe(-1);
    expect(run('number', 2, 'multiply', 3)).toBe(6);
    expect(run('number', 3, 'divide', 2)).toBe(1.5);
    expect(run('boolean', false, 'set', true)).toBe(true);
  });

  it('reads text from a template as the declared type', () => {
    expect(run('number', 1, 'add', '2')).toBe(3);
    expect(run('boolean', false, 'set', 'true')).toBe(true);
    expect(run('array[number]', [], 'extend', '[1,2]')).toEqual([1, 2]);
    expect(run('object', {}, 'set', '{"a":1}')).toEqual({ a: 1 });
    expect(run('string', '', 'set', '42')).toBe('42');
  });

  it('refuses what does not fit, with a code', () => {
    expect(codeOf(() => run('number', 1, 'append', 2))).toBe('ASSIGNER_OPERATION_TYPE');
    expect(codeOf(() => run('string', '', 'add', 2))).toBe('ASSIGNER_OPERATION_TYPE');
    expect(codeOf(() => run('number', 1, 'set', 'oops'))).toBe('ASSIGNER_VALUE_TYPE');
    expect(codeOf(() => run('array[string]', [], 'append', 3))).toBe('ASSIGNER_VALUE_TYPE');
    expect(codeOf(() => run('number', 1, 'set', undefined))).toBe('ASSIGNER_VALUE_REQUIRED');
    expect(codeOf(() => run('number', 1, 'divide', 0))).toBe('ASSIGNER_DIVIDE_BY_ZERO');
  });

  it('never changes the value it was given', () => {
    const list = ['a'];
    run('array[string]', list, 'append', 'b');
    expect(list).toEqual(['a']);
  });
});

describe('validating conversation variables and assigners', () => {
  const registry = createDefaultRegistry();
  const graph = (conversationVariables: unknown, operations: unknown, answer = '{{conversation.visits}}') => ({
    nodes: [
      { id: 'start', type: 'start', data: { config: { inputs: [{ name: 'q', type: 'string' }] } } },
      { id: 'set', type: 'variable_assigner', data: { config: { operations } } },
      { id: 'end', type: 'end', data: { config: { outputs: [{ name: 'answer', value: answer }] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'set' },
      { id: 'e2', source: 'set', target: 'end' },
    ],
    conversationVariables,
  });
  const problems = (g: unknown) => validateGraph(g, registry).errors.map((e) => [e.code, e.path]);
  const visits = [{ name: 'visits', type: 'number', default: 0 }];

  it('accepts declared variables, fitting operations and refs to them', () => {
    const ok = validateGraph(
      graph(
        [...visits, { name: 'notes', type: 'array[string]', description: 'what was said' }],
        [
          { variable: 'visits', operation: 'add', value: 1 },
          { variable: 'notes', operation: 'append', value: '{{inputs.q}}' },
          { variable: 'notes', operation: 'clear' },
        ],
      ),
      registry,
    );
    expect(ok.errors).toEqual([]);
  });

  it('refuses unknown keys, names used twice and defaults of the wrong type, each with its path', () => {
    expect(problems(graph([{ ...visits[0], scope: 'x' }], [{ variable: 'visits', value: 1 }]))).toEqual([
      ['UNKNOWN_KEY', 'conversationVariables[0].scope'],
    ]);
    expect(
      problems(graph([...visits, { name: 'visits', type: 'string', default: 3 }], [{ variable: 'visits', value: 1 }])),
    ).toEqual([
      ['DUPLICATE_CONVERSATION_VARIABLE', 'conversationVariables[1].name'],
      ['INVALID_CONVERSATION_VARIABLE_DEFAULT', 'conversationVariables[1].default'],
    ]);
  });

  it('checks each operation against the declarations, and refs to undeclared variables', () => {
    expect(
      problems(
        graph(
          visits,
          [
            { variable: 'nope', value: 1 },
            { variable: 'visits', operation: 'append', value: 1 },
            { variable: 'visits', operation: 'set', value: 'many' },
            { variable: 'visits', operation: 'add' },
          ],
          '{{conversation.other}}',
        ),
      ),
    ).toEqual([
      ['CONVERSATION_VARIABLE_UNKNOWN', 'nodes[1].data.config.operations[0].variable'],
      ['ASSIGNER_OPERATION_TYPE', 'nodes[1].data.config.operations[1].operation'],
      ['ASSIGNER_VALUE_TYPE', 'nodes[1].data.config.operations[2].value'],
      ['ASSIGNER_VALUE_REQUIRED', 'nodes[1].data.config.operations[3].value'],
      ['UNRESOLVED_REF', 'nodes[2].data.config.outputs[0].value'],
    ]);
  });

  it('"conversation" is reserved as a node id', () => {
    const g = graph(visits, [{ variable: 'visits', value: 1 }]);
    g.nodes[1].id = 'conversation';
    g.edges = [
      { id: 'e1', source: 'start', target: 'conversation' },
      { id: 'e2', source: 'conversation', target: 'end' },
    ];
    expect(problems(g)).toContainEqual(['RESERVED_NODE_ID', 'nodes[1].id']);
  });
});
