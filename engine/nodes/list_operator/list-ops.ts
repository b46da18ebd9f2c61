/**
 * The list operator's steps, pure functions over an array: filter by conditions on the item or on a key of object
 * items, extract the nth item, sort (stable) and dedupe by the item or a key, slice. Comparisons are the condition
 * node's (shared/compare.ts) plus `in` / `not_in`; nothing is evaluated as code, and key paths are read with own
 * properties only.
 */
import { PaiError } from '../../errors';
import { parsePath, type PathSegment } from '../../template/resolve';
import { compare, type Operator } from '../shared/compare';

export const LIST_OPERATORS = [
  'contains',
  'not_contains',
  'eq',
  'neq',
  'gt',
  'lt',
  'gte',
  'lte',
  'in',
  'not_in',
  'is_empty',
  'not_empty',
  'starts_with',
  'ends_with',
] as const;
export type ListOperator = (typeof LIST_OPERATORS)[number];

const ORDERED: ReadonlySet<ListOperator> = new Set(['gt', 'lt', 'gte', 'lte']);
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** A key path (`name`, `user.name`, `tags[0]`) parsed, or null when it is not one; '' is the item itself. */
export function keyPath(key: string | undefined): PathSegment[] | null {
  if (key === undefined || key.trim() === '') return [];
  return parsePath(key);
}

/** The value at `path` in `item` (own properties only); the item itself for an empty path. */
export function valueAt(item: unknown, path: PathSegment[]): unknown {
  let cur = item;
  for (const seg of path) {
    if (cur === null || cur === undefined) return undefined;
    if (typeof seg === 'number') cur = Array.isArray(cur) ? cur[seg] : undefined;
    else if (typeof cur !== 'object' || FORBIDDEN.has(seg) || !Object.prototype.hasOwnProperty.call(cur, seg))
      return undefined;
    else cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

export interface ListCondition {
  key?: string;
  op: ListOperator;
  value?: unknown;
}

/** The values of an `in` list: an array as it is, a JSON array written out, else comma-separated text. */
function members(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const s = value.trim();
    if (s.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(s);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // not JSON: comma-separated below
      }
    }
    return s === '' ? [] : s.split(',').map((x) => x.trim());
  }
  return value === undefined || value === null ? [] : [value];
}

export function matches(item: unknown, c: ListCondition): boolean {
  const left = valueAt(item, keyPath(c.key) ?? []);
  if (c.op === 'in' || c.op === 'not_in') {
    const has = members(c.value).some((m) => compare(left, 'eq', m));
    return c.op === 'in' ? has : !has;
  }
  // An item without the key is neither more nor less than anything (text comparison would rank it as '').
  if (ORDERED.has(c.op) && (left === undefined || left === null)) return false;
  return compare(left, c.op as Operator, c.value);
}

export function filterItems(items: unknown[], conditions: ListCondition[], logic: 'and' | 'or'): unknown[] {
  if (!conditions.length) return items;
  return items.filter((item) =>
    logic === 'or' ? conditions.some((c) => matches(item, c)) : conditions.every((c) => matches(item, c)),
  );
}

/** Numbers (and numeric text) by value, else text; missing values last in either order. */
function compareValues(a: unknown, b: unknown): number {
  const na = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const nb = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  const sa = typeof a === 'object' ? JSON.stringify(a) : String(a);
  const sb = typeof b === 'object' ? JSON.stringify(b) : String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const missing = (v: unknown) => v === undefined || v === null;

/** A stable sort: items with equal keys keep their order, in both directions. */
export function sortItems(items: unknown[], key: string | undefined, order: 'asc' | 'desc'): unknown[] {
  const path = keyPath(key) ?? [];
  const sign = order === 'desc' ? -1 : 1;
  return items
    .map((item, i) => ({ item, i, v: valueAt(item, path) }))
    .sort((x, y) => {
      if (missing(x.v) || missing(y.v)) return missing(x.v) === missing(y.v) ? x.i - y.i : missing(x.v) ? 1 : -1;
      return sign * compareValues(x.v, y.v) || x.i - y.i;
    })
    .map((x) => x.item);
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same value. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** The first item of each distinct value (of the item, or of its key), in their order. */
export function dedupeItems(items: unknown[], key: string | undefined): unknown[] {
  const path = keyPath(key) ?? [];
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = canonical(valueAt(item, path));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The input as an array: an array, or a JSON array written out as text; nothing (a value no node gave) is an empty
 * list, as in Dify; anything else is LIST_INPUT_NOT_ARRAY, or with `wrapSingle` (n8n's Split Out) a list of that
 * value (an object: of its values).
 */
export function asArray(value: unknown, wrapSingle = false): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null) return [];
  if (wrapSingle) return typeof value === 'object' ? Object.values(value) : [value];
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // reported below
    }
  }
  const what = typeof value;
  throw new PaiError('LIST_INPUT_NOT_ARRAY', `the list operator's input is ${what}, not an array`, {
    path: 'config.input',
  });
}
