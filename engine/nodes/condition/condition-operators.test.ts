// Guarantees: every condition operator gives the documented result with number/string/boolean typing, regexes run on
// RE2 (no catastrophic backtracking, invalid → INVALID_REGEX, a feature RE2 lacks → REGEX_UNSUPPORTED), and the
// condition node routes runs down the first matching branch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuLimits, useCpuLimits } from '@/engine/cpu/limits';
import { PaiError } from '@/engine/errors';
import type { Graph } from '@/engine/graph/schema';
import { compare, OPERATORS, type Operator, type ValueType } from '@/engine/nodes/shared/compare';
import { conditionConfigSchema, conditionNode } from './index';
import { createHarness, type Harness } from '@/test/support/harness';

type Row = [left: unknown, op: Operator, right: unknown, type: ValueType, expected: boolean];

const rows: Row[] = [
  // eq / neq — auto compares as numbers when both sides are numeric, else as text
  [5, 'eq', '5', 'auto', true],
  ['05', 'eq', '5', 'auto', true],
  ['05', 'eq', '5', 'string', false],
  [' 12 ', 'eq', 12, 'auto', true],
  ['1e3', 'eq', '1000', 'auto', true],
  ['abc', 'eq', 'abc', 'auto', true],
  ['abc', 'eq', 'ABC', 'auto', false],
  ['', 'eq', 0, 'auto', false],
  [null, 'eq', '', 'auto', true],
  [undefined, 'eq', '', 'string', true],
  [true, 'eq', 'true', 'auto', true],
  [{ a: 1 }, 'eq', '{"a":1}', 'auto', true],
  [5, 'neq', '5', 'auto', false],
  ['a', 'neq', 'b', 'auto', true],
  ['05', 'neq', '5', 'string', true],
  ['x', 'eq', '5', 'number', false], // not a number: never equal …
  ['x', 'neq', '5', 'number', true], // … always different
  // gt / gte / lt / lte — numbers by value, strings lexically
  ['10', 'gt', '9', 'auto', true],
  ['10', 'gt', '9', 'string', false],
  ['10', 'gt', '9', 'number', true],
  [10, 'gt', 10, 'auto', false],
  [10, 'gte', 10, 'auto', true],
  [9.5, 'gte', '10', 'auto', false],
  [-1, 'lt', 0, 'auto', true],
  ['b', 'lt', 'a', 'auto', false],
  ['apple', 'lt', 'banana', 'auto', true],
  [3, 'lte', '3', 'auto', true],
  [4, 'lte', '3', 'number', false],
  ['abc', 'gt', 5, 'auto', true], // one side not numeric → text: "abc" > "5"
  // boolean typing
  ['true', 'eq', true, 'boolean', true],
  ['false', 'eq', false, 'boolean', true],
  ['no', 'eq', 'off', 'boolean', true],
  ['0', 'eq', '', 'boolean', true],
  ['yes', 'eq', 'false', 'boolean', false],
  [1, 'neq', 'true', 'boolean', false],
  // contains / not_contains — substring of text, or element of an array
  ['hello world', 'contains', 'o w', 'auto', true],
  ['hello', 'contains', 'H', 'auto', false],
  [['a', 'b'], 'contains', 'b', 'auto', true],
  [['ab', 'c'], 'contains', 'a', 'auto', false], // array: whole elements only
  [[1, 2, 3], 'contains', '2', 'auto', true],
  [12345, 'contains', 34, 'auto', true],
  [{ k: 'needle' }, 'contains', 'needle', 'auto', true],
  [undefined, 'contains', 'x', 'auto', false],
  ['hello', 'not_contains', 'z', 'auto', true],
  [['a'], 'not_contains', 'a', 'auto', false],
  // starts_with / ends_with
  ['PaiFlow', 'starts_with', 'Pai', 'auto', true],
  ['PaiFlow', 'starts_with', 'pai', 'auto', false],
  [12345, 'starts_with', 12, 'auto', true],
  ['report.pdf', 'ends_with', '.pdf', 'auto', true],
  ['report.pdf', 'ends_with', '.PDF', 'auto', false],
  [null, 'ends_with', '', 'auto', true],
  // is_empty / not_empty — the right side is ignored
  [undefined, 'is_empty', 'ignored', 'auto', true],
  [null, 'is_empty', undefined, 'auto', true],
  ['', 'is_empty', undefined, 'auto', true],
  ['   ', 'is_empty', undefined, 'auto', true],
  [[], 'is_empty', undefined, 'auto', true],
  [{}, 'is_empty', undefined, 'auto', true],
  [0, 'is_empty', undefined, 'auto', false],
  [false, 'is_empty', undefined, 'auto', false],
  ['x', 'is_empty', undefined, 'auto', false],
  [[0], 'is_empty', undefined, 'auto', false],
  ['x', 'not_empty', undefined, 'auto', true],
  [[], 'not_empty', undefined, 'auto', false],
  [0, 'not_empty', undefined, 'auto', true],
  // regex — RE2 syntax, a match anywhere unless anchored
  ['order #4521 shipped', 'regex', '#\\d+', 'auto', true],
  ['order shipped', 'regex', '#\\d+', 'auto', false],
  ['Site is DOWN', 'regex', '(?i)\\bdown\\b', 'auto', true],
  ['Site is DOWN', 'regex', '\\bdown\\b', 'auto', false],
  ['abc', 'regex', '^b', 'auto', false],
  [12345, 'regex', '^\\d{5}$', 'auto', true],
  ['', 'regex', '', 'auto', true],
];

describe('compare()', () => {
  it('covers every operator', () => {
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(OPERATORS));
  });

  it.each(rows)('%j %s %j (%s) → %s', (left, op, right, type, expected) => {
    expect(compare(left, op, right, type)).toBe(expected);
  });

  it('ordering with a non-number under type "number" is an error, not a guess', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      expect(() => compare('abc', op, '1', 'number')).toThrowError(expect.objectContaining({ code: 'TYPE_MISMATCH' }));
    }
    expect(() => compare('NaN', 'gt', 1, 'number')).toThrowError(PaiError);
    expect(() => compare('Infinity', 'lt', 1, 'number')).toThrowError(PaiError);
  });

  it('a catastrophic-backtracking pattern runs in linear time on RE2 and gives the right answer', () => {
    const evil = `${'a'.repeat(30_000)}!`;
    expect(compare(evil, 'regex', '(a+)+$', 'auto')).toBe(false);
    expect(compare(evil, 'regex', '^(a|aa)+$', 'auto')).toBe(false);
    expect(compare(evil, 'regex', '(a*)*b', 'auto')).toBe(false);
    expect(compare(`${'a'.repeat(30_000)}`, 'regex', '^(a+)+$', 'auto')).toBe(true);
    expect(compare(evil, 'regex', '(a+)+!$', 'auto')).toBe(true);
  });

  it.each([
    ['(', 'INVALID_REGEX'],
    ['[a-', 'INVALID_REGEX'],
    ['a{2,1}', 'INVALID_REGEX'],
    ['*a', 'INVALID_REGEX'],
    ['(?P<n>a)(?P=n)', 'INVALID_REGEX'],
    ['(?<=a)b', 'REGEX_UNSUPPORTED'],
    ['(a)\\1', 'REGEX_UNSUPPORTED'],
    ['a++', 'REGEX_UNSUPPORTED'],
  ])('regex %s → %s', (pattern, code) => {
    let err: unknown;
    try {
      compare('abc', 'regex', pattern, 'auto');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PaiError);
    expect((err as PaiError).code).toBe(code);
  });
});

describe('condition node', () => {
  const exec = async (branches: unknown) => {
    const config = conditionConfigSchema.parse({ branches });
    return conditionNode.execute({ config, rawConfig: config } as any);
  };

  it('takes the first branch whose conditions hold (and / or), else "else"', async () => {
    const branches = [
      {
        id: 'both',
        logic: 'and',
        conditions: [
          { left: 'a', op: 'eq', right: 'a' },
          { left: '1', op: 'gt', right: '2' },
        ],
      },
      {
        id: 'either',
        logic: 'or',
        conditions: [
          { left: 'a', op: 'eq', right: 'b' },
          { left: '3', op: 'gt', right: '2' },
        ],
      },
      { id: 'later', conditions: [{ left: 'x', op: 'not_empty' }] },
    ];
    expect(await exec(branches)).toMatchObject({
      branch: 'either',
      output: { branch: 'either', results: [false, true] },
    });
    expect(await exec([{ id: 'no', conditions: [{ left: '', op: 'not_empty' }] }])).toEqual({
      branch: 'else',
      output: { branch: 'else' },
    });
  });

  it('config validation: branch ids are identifiers and "else" is reserved; operators are a closed set', () => {
    expect(
      conditionConfigSchema.safeParse({ branches: [{ id: 'else', conditions: [{ left: 'a', op: 'eq', right: 'a' }] }] })
        .success,
    ).toBe(false);
    expect(
      conditionConfigSchema.safeParse({
        branches: [{ id: 'ok', conditions: [{ left: 'a', op: 'matches', right: 'a' }] }],
      }).success,
    ).toBe(false);
    expect(conditionConfigSchema.safeParse({ branches: [{ id: 'ok', conditions: [] }] }).success).toBe(false);
    expect(conditionConfigSchema.safeParse({ branches: [] }).success).toBe(false);
  });

  describe('in a real run', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness('pglite');
    });
    afterAll(async () => {
      await h?.close();
    });

    const graph = (right: string, valueType = 'auto'): Graph => ({
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 0, y: 0 },
          data: {
            config: {
              inputs: [
                { name: 'n', type: 'number' },
                { name: 's', type: 'string' },
              ],
            },
          },
        },
        {
          id: 'c',
          type: 'condition',
          position: { x: 0, y: 0 },
          data: {
            config: {
              branches: [
                { id: 'big', conditions: [{ left: '{{inputs.n}}', op: 'gt', right: '{{inputs.s}}', valueType }] },
                { id: 'match', conditions: [{ left: '{{inputs.s}}', op: 'regex', right }] },
              ],
            },
          },
        },
        { id: 'yes', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'big' } } },
        { id: 'm', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'match' } } },
        { id: 'no', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'else' } } },
        {
          id: 'end',
          type: 'end',
          position: { x: 0, y: 0 },
          data: {
            config: { outputs: [{ name: 'r', value: '{{yes.output.text || m.output.text || no.output.text}}' }] },
          },
        },
      ],
      edges: [
        { id: 'e0', source: 'start', target: 'c' },
        { id: 'e1', source: 'c', sourceHandle: 'big', target: 'yes' },
        { id: 'e2', source: 'c', sourceHandle: 'match', target: 'm' },
        { id: 'e3', source: 'c', sourceHandle: 'else', target: 'no' },
        { id: 'e4', source: 'yes', target: 'end' },
        { id: 'e5', source: 'm', target: 'end' },
        { id: 'e6', source: 'no', target: 'end' },
      ],
    });

    it(
      'compares a typed number input with a numeric string by value, ' + 'and routes; untaken branches are skipped',
      async () => {
        const wf = await h.createWorkflow(graph('^z'));
        const big = await h.runToEnd(wf, { n: 10, s: '9' });
        expect(big.status).toBe('succeeded');
        expect(big.outputs).toEqual({ r: 'big' });
        const status = Object.fromEntries((await h.store.getNodeRuns(big.id)).map((n) => [n.nodeId, n.status]));
        expect(status).toMatchObject({
          c: 'succeeded',
          yes: 'succeeded',
          m: 'skipped',
          no: 'skipped',
          end: 'succeeded',
        });

        expect((await h.runToEnd(wf, { n: 1, s: '9' })).outputs).toEqual({ r: 'else' });
        // 1 > "zebra" as text is false
        expect((await h.runToEnd(wf, { n: 1, s: 'zebra' })).outputs).toEqual({ r: 'match' });
      },
    );

    it('string typing compares lexically', async () => {
      const wf = await h.createWorkflow(graph('^z', 'string'));
      expect((await h.runToEnd(wf, { n: 10, s: '9' })).outputs).toEqual({ r: 'else' }); // "10" < "9"
    });

    it('a written-out invalid regex is refused before the run starts, with INVALID_REGEX and its path', async () => {
      const wf = await h.createWorkflow(graph('(unclosed'));
      await expect(h.runToEnd(wf, { n: 1, s: 'x' })).rejects.toMatchObject({
        code: 'INVALID_REGEX',
        path: 'nodes[1].data.config.branches[1].conditions[0].right',
      });
    });

    it('a ReDoS pattern against a 30k-char input completes with the right branch', async () => {
      // RE2 matches in linear time: a backtracking engine would need ~2^30000 steps, so a generous timeout still
      // fails it, while a worker thread that starts slowly on a loaded CI machine no longer does.
      const before = cpuLimits();
      useCpuLimits(() => ({ ...before, regexTimeoutMs: 30_000 }));
      try {
        const wf = await h.createWorkflow(graph('(a+)+$'));
        const run = await h.runToEnd(wf, { n: 1, s: `${'a'.repeat(30_000)}!` });
        expect(run.status).toBe('succeeded');
        expect(run.outputs).toEqual({ r: 'else' });
      } finally {
        useCpuLimits(() => before);
      }
    }, 90_000);
  });
});
