/**
 * Typed comparisons for the condition node. Regexes run on RE2 (re2js: linear time, no backtracking), so a
 * user-supplied pattern cannot hang the engine (no ReDoS).
 */
import { RE2JS } from 're2js';
import { PaiError } from '../errors';

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'is_empty',
  'not_empty',
  'regex',
] as const;
export type Operator = (typeof OPERATORS)[number];
export const UNARY_OPERATORS: ReadonlySet<Operator> = new Set(['is_empty', 'not_empty']);
export type ValueType = 'auto' | 'string' | 'number' | 'boolean';

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

function toText(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function toBool(v: unknown): boolean {
  if (typeof v === 'string') return !['', 'false', '0', 'no', 'off'].includes(v.trim().toLowerCase());
  return Boolean(v);
}

export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

const regexCache = new Map<string, RE2JS>();
function compileRegex(pattern: string): RE2JS {
  let re = regexCache.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw new PaiError('INVALID_REGEX', `invalid regular expression: ${(e as Error).message}`);
    }
    if (regexCache.size > 500) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

export function compare(left: unknown, op: Operator, right: unknown, type: ValueType = 'auto'): boolean {
  switch (op) {
    case 'is_empty':
      return isEmpty(left);
    case 'not_empty':
      return !isEmpty(left);
    case 'contains':
    case 'not_contains': {
      const has = Array.isArray(left)
        ? left.some((x) => toText(x) === toText(right))
        : toText(left).includes(toText(right));
      return op === 'contains' ? has : !has;
    }
    case 'starts_with':
      return toText(left).startsWith(toText(right));
    case 'ends_with':
      return toText(left).endsWith(toText(right));
    case 'regex':
      return compileRegex(toText(right)).matcher(toText(left)).find();
  }
  // eq/neq/gt/gte/lt/lte: typed comparison.
  let a: number | string | boolean;
  let b: number | string | boolean;
  if (type === 'boolean') {
    a = toBool(left);
    b = toBool(right);
  } else {
    const na = toNumber(left);
    const nb = toNumber(right);
    if (type === 'number' || (type === 'auto' && na !== undefined && nb !== undefined)) {
      if (na === undefined || nb === undefined) {
        if (op === 'eq') return false;
        if (op === 'neq') return true;
        throw new PaiError(
          'TYPE_MISMATCH',
          `cannot compare ${JSON.stringify(toText(left))} and ${JSON.stringify(toText(right))} as numbers`,
        );
      }
      a = na;
      b = nb;
    } else {
      a = toText(left);
      b = toText(right);
    }
  }
  switch (op) {
    case 'eq':
      return a === b;
    case 'neq':
      return a !== b;
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
  }
}
