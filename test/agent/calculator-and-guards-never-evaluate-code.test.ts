// Guarantees: the calculator is a closed-grammar parser (correct precedence, bounded input, no access to anything
// but its own function table), nothing in the agent evaluates code (no eval / new Function / vm), the loop guard's
// argument normalisation ignores key order and spacing, and tool selection by name or prefix is exact.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopGuard, normaliseArgs } from '@/engine/agent/loop-guard';
import { ToolRegistry } from '@/engine/agent/tool-registry';
import { CalcError, evaluate } from '@/engine/agent/tools/calculator';
import { calculatorTool } from '@/engine/agent/tools/builtin-tools';
import { classifyToolError, ToolPolicyError, ToolTimeoutError } from '@/engine/agent/tool-errors';
import { PaiError } from '@/engine/errors';

describe('calculator', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 10', 1024],
    ['-2 ^ 2', -4],
    ['10 / 4', 2.5],
    ['10 % 4', 2],
    ['1_000 * 3', 3000],
    ['1.5e3 + .5', 1500.5],
    ['sqrt(16) + abs(-3)', 7],
    ['max(100,200, 3)', 200],
    ['min(4, 2)', 2],
    ['round(3.14159, 2)', 3.14],
    ['log(100)', 2],
    ['log(8, 2)', 3],
    ['ln(e)', 1],
    ['2 * pi', 2 * Math.PI],
    ['--3', 3],
    ['7 × 6 ÷ 2', 21],
  ])('%s = %s', (expr, value) => {
    expect(evaluate(expr)).toBeCloseTo(value as number, 10);
  });

  it.each([
    ['', /empty/],
    ['1 +', /ends too early/],
    ['(1 + 2', /expected "\)"/],
    ['1 / 0', /division by zero/],
    ['foo(1)', /unknown function "foo"/],
    ['x + 1', /unknown name "x"/],
    ['constructor', /unknown name "constructor"/],
    ['toString(1)', /unknown function "tostring"/],
    ['__proto__', /unknown name "__proto__"/],
    ['process.exit(1)', /unexpected character "\."/],
    ['require("fs")', /unexpected character/],
    ['1; 2', /unexpected character ";"/],
    ['`1`', /unexpected character/],
    ['sqrt(1, 2)', /takes 1 argument/],
    ['10 ^ 400', /infinite/],
    ['sqrt(-1)', /not a number/],
    ['1 2', /unexpected "2"/],
  ])('rejects %j', (expr, why) => {
    expect(() => evaluate(expr)).toThrow(CalcError);
    expect(() => evaluate(expr)).toThrow(why);
  });

  it('bounds length and nesting', () => {
    expect(() => evaluate('1+'.repeat(600) + '1')).toThrow(/longer than/);
    expect(() => evaluate('('.repeat(200) + '1' + ')'.repeat(200))).toThrow(/nested too deeply/);
    expect(() => evaluate('-'.repeat(200) + '1')).toThrow(/nested too deeply/);
  });

  it('the tool validates its arguments and formats results', async () => {
    const ctx = {} as never;
    expect(await calculatorTool.execute({ expression: '0.1 + 0.2' }, ctx)).toBe('0.3');
    await expect(calculatorTool.execute({}, ctx)).rejects.toThrow(/invalid arguments: expression/);
    expect(calculatorTool.parameters).toMatchObject({
      type: 'object',
      properties: { expression: { type: 'string' } },
      required: ['expression'],
    });
  });
});

describe('no code evaluation anywhere in the agent', () => {
  const root = path.resolve(__dirname, '../../engine/agent');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  it.each(files(root).map((f) => [path.relative(root, f), f]))('%s', (_name, file) => {
    const src = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(src).not.toMatch(/\beval\s*\(|new\s+Function\s*\(|node:vm|from\s+['"]vm['"]/);
  });
});

describe('loop guard and tool policy', () => {
  it('normalises arguments: key order, whitespace, string spacing and case', () => {
    expect(normaliseArgs('{"b":1,"a":{"y":[1,2],"x":" Hi  there "}}')).toBe(
      normaliseArgs('{ "a": { "x": "hi there", "y": [1, 2] }, "b": 1.0 }'),
    );
    expect(normaliseArgs('{"a":[1,2]}')).not.toBe(normaliseArgs('{"a":[2,1]}'));
    expect(normaliseArgs('not json  at all')).toBe(normaliseArgs('not json at all '));
  });

  it('counts per tool name within the window', () => {
    const g = new LoopGuard({ window: 20 });
    expect(g.check('a', '{"q":1}').action).toBe('allow');
    expect(g.check('b', '{"q":1}').action).toBe('allow'); // another tool: its own count
    expect(g.check('a', '{"q":1}').action).toBe('allow');
    expect(g.check('a', '{"q":1}')).toMatchObject({ action: 'warn', count: 3 });
    expect(g.check('a', '{"q":1}')).toMatchObject({ action: 'warn', count: 4 });
    expect(g.check('a', '{"q":1}')).toMatchObject({ action: 'block', count: 5 });
    expect(g.check('a', '{"q":1}')).toMatchObject({ action: 'block', count: 6 });
    // 20 other calls push the old ones out of the window.
    for (let i = 0; i < 20; i++) g.check('c', `{"i":${i}}`);
    expect(g.check('a', '{"q":1}').action).toBe('allow');
  });

  it('classifies tool errors', () => {
    expect(classifyToolError(new ToolPolicyError('nope'))).toEqual({ kind: 'denied', text: 'policy denied: nope' });
    expect(classifyToolError(new PaiError('SSRF_BLOCKED', 'Blocked request'))).toEqual({
      kind: 'denied',
      text: 'policy denied: Blocked request',
      code: 'SSRF_BLOCKED',
    });
    expect(classifyToolError(new ToolTimeoutError('slow'))).toEqual({ kind: 'timeout', text: 'tool timed out: slow' });
    expect(classifyToolError(new Error('boom'))).toEqual({ kind: 'failed', text: 'tool failed: boom' });
  });

  it('selects tools by exact name or prefix*, reporting what matched nothing', () => {
    const t = (name: string) => ({ name, description: '', parameters: { type: 'object' }, execute: async () => '' });
    const r = new ToolRegistry().registerAll([
      t('calculator'),
      t('mcp__gh__issues'),
      t('mcp__gh__prs'),
      t('mcp__ghx__a'),
    ]);
    expect(r.select(['mcp__gh__*', 'calculator', 'nope', 'mcp__zz__*'])).toEqual({
      tools: [
        expect.objectContaining({ name: 'mcp__gh__issues' }),
        expect.objectContaining({ name: 'mcp__gh__prs' }),
        expect.objectContaining({ name: 'calculator' }),
      ],
      missing: ['nope', 'mcp__zz__*'],
    });
    expect(() => r.register(t('calculator'))).toThrow(/twice/);
    expect(() => r.register(t('bad name!'))).toThrow(/invalid tool name/);
  });
});
