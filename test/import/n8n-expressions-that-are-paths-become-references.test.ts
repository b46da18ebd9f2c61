// Guarantees: an n8n expression that only reads data — $json paths, $input / $('Node') / $node["Node"] items, wrapped
// in JSON.stringify or String, with a || / ?? fallback — is understood as references (never run); anything that
// computes (a method call, arithmetic, $now) is recognised as code; a parameter splits into text and expressions,
// braces inside an expression included; a Code node's $('Node') names are found.
import { describe, expect, it } from 'vitest';
import { nodesNamedInCode, parseExpression, splitTemplate } from '@/lib/server/workflows/import/n8n-expressions';

describe('n8n expressions that are paths', () => {
  it.each([
    ['$json.body.name', [{ path: ['body', 'name'] }]],
    ['$json["first name"][0]', [{ path: ['first name', 0] }]],
    ['$json?.a?.b', [{ path: ['a', 'b'] }]],
    ['$input.first().json.x', [{ path: ['x'] }]],
    ['$input.item.json.x.toString()', [{ path: ['x'] }]],
    ['$input.all()[0].json', [{ path: [] }]],
    ["$('Edit Fields').item.json.name", [{ node: 'Edit Fields', path: ['name'] }]],
    ['$("Fetch").last().json.items[2].title', [{ node: 'Fetch', path: ['items', 2, 'title'] }]],
    ['$node["Old Style"].json.id', [{ node: 'Old Style', path: ['id'] }]],
    ['$json', [{ path: [] }]],
  ])('%s', (expr, refs) => {
    expect(parseExpression(expr)).toEqual({ refs, fallback: undefined, stringify: false });
  });

  it('keeps a fallback chain and its literal, and notes JSON.stringify', () => {
    expect(parseExpression("$json.a || $json.b || 'none'")).toEqual({
      refs: [{ path: ['a'] }, { path: ['b'] }],
      fallback: 'none',
      stringify: false,
    });
    expect(parseExpression('$json.a ?? "x"')?.fallback).toBe('x');
    expect(parseExpression('JSON.stringify($json.body)')).toEqual({ refs: [{ path: ['body'] }], stringify: true });
    expect(parseExpression('String($json.n)')?.refs).toEqual([{ path: ['n'] }]);
  });

  it.each([
    '$json.name.toUpperCase()',
    '$json.a + 1',
    '$now.toISO()',
    '$json.items.map(i => i.id)',
    '{ "a": $json.a }',
    '$jsonX',
    "'only a literal'",
    '',
  ])('%s is code', (expr) => {
    expect(parseExpression(expr)).toBeNull();
  });

  it('splits a parameter into text and expressions; a value without "=" is text', () => {
    expect(splitTemplate('=Hi {{ $json.name }}, {{ { a: 1 }.a }}!')).toEqual([
      { text: 'Hi ', expression: false },
      { text: '$json.name', expression: true },
      { text: ', ', expression: false },
      { text: '{ a: 1 }.a', expression: true },
      { text: '!', expression: false },
    ]);
    expect(splitTemplate('Hi {{ $json.name }}')).toEqual([{ text: 'Hi {{ $json.name }}', expression: false }]);
  });

  it("finds the nodes a Code node's source reads", () => {
    const code = 'const a = $(\'Edit Fields\').first().json; const b = $node["Fetch"].json; $(`Tpl`);';
    expect(nodesNamedInCode(code).sort()).toEqual(['Edit Fields', 'Fetch', 'Tpl']);
  });
});
