/**
 * Input refused wherever it appears, checked once where requests are read — the JSON body (lib/http/body.ts), the
 * webhook body and the query string (route() in lib/http/errors.ts):
 * - NUL (U+0000) cannot be stored: PostgreSQL refuses it in text and JSON, so it would fail in the database as a 500.
 *   → 400 INVALID_CHARACTER naming the field.
 * - A `__proto__` key in a JSON body becomes the prototype of the object it is copied into (a parsed object's own
 *   `__proto__` property is an ordinary key until something assigns it), so its contents would be read as inherited
 *   fields. → 400 RESERVED_KEY naming it. (`constructor` and `prototype` are refused in graphs by their schema.)
 */
import { PaiError } from '@/engine/errors';
import { toJsonPath } from '@/engine/graph/schema';

function refusal(path: string): PaiError {
  return new PaiError('INVALID_CHARACTER', `${path} contains a NUL character (U+0000), which cannot be stored`, {
    status: 400,
    path,
  });
}

/** The path of the first string or key in `value` that contains NUL, else null. */
function nulPath(value: unknown, path: PropertyKey[]): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return [...path, k.replace(/\u0000/g, '')];
      const found = nulPath(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses a value read from a request (a parsed body, a form) that holds a NUL; `base` prefixes the path. */
export function refuseNul(value: unknown, base = ''): void {
  const path = nulPath(value, []);
  if (path) throw refusal(toJsonPath(path, base) || '(body)');
}

/** The path of the first `__proto__` key in `value`, else null. */
function protoKeyPath(value: unknown, path: PropertyKey[], depth = 0): PropertyKey[] | null {
  if (depth > 256 || value === null || typeof value !== 'object') return null;
  const entries: Array<[PropertyKey, unknown]> = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [k, v] of entries) {
    if (k === '__proto__') return [...path, k];
    const found = protoKeyPath(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses a parsed JSON body holding a NUL or a `__proto__` key (`text` is its source: the walks are made only when
 * the text holds an escape or the key's name).
 */
export function refuseNulInBody(text: string, data: unknown): void {
  if (text.includes('\\u0000')) refuseNul(data);
  // An escape (`\u005f_proto__`) spells the key too: any escaped character means a walk.
  if (text.includes('__proto__') || text.includes('\\u')) {
    const path = protoKeyPath(data, []);
    if (path)
      throw new PaiError('RESERVED_KEY', `${toJsonPath(path)}: "__proto__" is a reserved key and cannot be sent`, {
        status: 400,
        path: toJsonPath(path),
      });
  }
}

/** Refuses a request URL whose query string holds a NUL (`%00`) in a name or a value. */
export function refuseNulInQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0 || !/%00/.test(url.slice(q))) return;
  for (const [name, value] of new URL(url, 'http://localhost').searchParams)
    if (name.includes('\u0000') || value.includes('\u0000')) throw refusal(`query.${name.replace(/\u0000/g, '')}`);
}
