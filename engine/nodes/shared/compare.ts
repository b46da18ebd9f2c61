/**
 * Typed comparisons for the condition and loop nodes. Regexes run on RE2 (re2js: linear time, no backtracking),
 * under limits on the pattern (REGEX_TOO_COMPLEX), and off the event loop with a time limit (REGEX_TIMEOUT) when
 * the match would cost more than about a millisecond: see regex.ts. Nodes call compareAsync(); compare() is the same
 * comparison with every regex matched inline, for callers that know their values are small.
 */
import { PaiError } from '../../errors';
import { regexFind, regexFindInline } from './regex';

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
      return regexFindInline(toText(right), toText(left));
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

/** compare(), with a regex on a large value matched in a worker thread under REGEX_TIMEOUT_MS (`signal` cancels). */
export async function compareAsync(
  left: unknown,
  op: Operator,
  right: unknown,
  type: ValueType = 'auto',
  opts: { signal?: AbortSignal } = {},
): Promise<boolean> {
  if (op !== 'regex') return compare(left, op, right, type);
  return regexFind(toText(right), toText(left), opts);
}
