/**
 * Guarantees: each unknown key of a strict schema is its own UNKNOWN_KEY problem, pathed at the key, listed before
 * the other issues; the suggestion is the known key of that very object — found through optional, default, lazy,
 * pipe, array, record and union wrappers, and a discriminated union's own branch — that differs only in case or by
 * at most two edits (fewer for short keys), never a far one.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { editDistance, suggestKey } from './suggest-key';
import { knownKeysAt, zodProblems } from './zod-problems';

describe('suggestKey', () => {
  it('prefers a case-insensitive match, then the closest key within two edits', () => {
    expect(suggestKey('baseURL', ['baseUrl', 'apiKey'])).toBe('baseUrl');
    expect(suggestKey('temprature', ['temperature', 'maxTokens'])).toBe('temperature');
    expect(suggestKey('inptus', ['inputs', 'engine'])).toBe('inputs');
    expect(suggestKey('nme', ['name'])).toBe('name');
  });
  it('says nothing for a far key, or for a short key that would become another word', () => {
    expect(suggestKey('priority', ['inputs', 'engine', 'breakpoints'])).toBeUndefined();
    expect(suggestKey('id', ['ok'])).toBeUndefined();
    expect(suggestKey('x', ['y'])).toBeUndefined();
  });
  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2); // stops once past the limit
  });
});

describe('zodProblems', () => {
  const schema = z.strictObject({
    name: z.string(),
    data: z
      .strictObject({
        baseUrl: z.string().optional(),
        rows: z.array(z.strictObject({ label: z.string() })).default([]),
      })
      .optional(),
    kind: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('a'), alpha: z.number() }),
      z.strictObject({ type: z.literal('b'), beta: z.number() }),
    ]),
    map: z.record(
      z.string(),
      z.lazy(() => z.strictObject({ value: z.number() })),
    ),
    piped: z.preprocess((v) => v, z.strictObject({ wanted: z.boolean() })),
  });

  it('makes one problem per unknown key, with the key of that object it was meant to be', () => {
    const input = {
      nmae: 'x',
      data: { baseURL: 'u', rows: [{ lable: 'l' }] },
      kind: { type: 'b', alpha: 1, beta: 2 },
      map: { k: { valeu: 1, value: 1 } },
      piped: { wantd: true, wanted: true },
    };
    const r = schema.safeParse(input);
    const problems = zodProblems(schema, input, r.error!.issues, { code: 'INVALID', base: 'body' });
    expect(problems.map((p) => [p.code, p.path, p.details?.suggestion])).toEqual([
      ['UNKNOWN_KEY', 'body.data.rows[0].lable', 'label'],
      ['UNKNOWN_KEY', 'body.data.baseURL', 'baseUrl'],
      ['UNKNOWN_KEY', 'body.kind.alpha', undefined], // branch b has no alpha, and a's is not offered
      ['UNKNOWN_KEY', 'body.map.k.valeu', 'value'],
      ['UNKNOWN_KEY', 'body.piped.wantd', 'wanted'],
      ['UNKNOWN_KEY', 'body.nmae', 'name'],
      ['INVALID', 'body.name', undefined],
      ['INVALID', 'body.data.rows[0].label', undefined],
    ]);
    expect(problems[1].message).toBe('unknown key "baseURL" — did you mean "baseUrl"?');
    expect(problems[2].message).toBe('unknown key "alpha"');
  });

  it('finds the known keys at a path, or none where there is no object', () => {
    expect([...knownKeysAt(schema, ['data'], {})]).toEqual(['baseUrl', 'rows']);
    expect([...knownKeysAt(schema, ['kind'], { kind: { type: 'a' } })]).toEqual(['type', 'alpha']);
    expect([...knownKeysAt(schema, ['name'], {})]).toEqual([]);
  });

  it('without the schema, still names the key', () => {
    const r = schema.safeParse({
      name: 'x',
      kind: { type: 'a', alpha: 1 },
      map: {},
      piped: { wanted: true },
      extra: 1,
    });
    expect(zodProblems(undefined, undefined, r.error!.issues, { code: 'INVALID' })).toEqual([
      { code: 'UNKNOWN_KEY', message: 'unknown key "extra"', path: 'extra', details: { key: 'extra' } },
    ]);
  });
});
