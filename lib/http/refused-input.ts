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
import { toJsonPath } from '@/engine/validation/json-path';

function refusal(path: string): PaiError {
  return new PaiError('INVALID_CHARACTER', `${path} contains a NUL character (U+0000), which cannot be stored`, {
    path,
  });
}

function reservedKey(path: string): PaiError {
  return new PaiError('RESERVED_KEY', `${path}: "__proto__" is a reserved key and cannot be sent`, {
    path,
  });
}

interface Look {
  /** Strings and keys holding NUL. */
  nul: boolean;
  /** Keys named `__proto__`. */
  proto: boolean;
}

/** The first refused string or key in `value` (depth first, in order) with its path, else null. */
function firstRefused(
  value: unknown,
  look: Look,
  path: PropertyKey[] = [],
  depth = 0,
): { path: PropertyKey[]; error: (path: string) => PaiError } | null {
  if (typeof value === 'string') return look.nul && value.includes('\u0000') ? { path, error: refusal } : null;
  if (depth > 256 || value === null || typeof value !== 'object') return null;
  const entries: Array<[PropertyKey, unknown]> = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [k, v] of entries) {
    if (typeof k === 'string') {
      if (look.nul && k.includes('\u0000')) return { path: [...path, k.replace(/\u0000/g, '')], error: refusal };
      if (look.proto && k === '__proto__') return { path: [...path, k], error: reservedKey };
    }
    const found = firstRefused(v, look, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

function refuse(value: unknown, look: Look, base = ''): void {
  if (!look.nul && !look.proto) return;
  const found = firstRefused(value, look);
  if (found) throw found.error(toJsonPath(found.path, base) || '(body)');
}

/** Refuses a value read from a request (a parsed body, a form) that holds a NUL; `base` prefixes the path. */
export function refuseNul(value: unknown, base = ''): void {
  refuse(value, { nul: true, proto: false }, base);
}

/**
 * Refuses a parsed JSON body holding a NUL or a `__proto__` key. `text` is its source: it is walked only when the
 * text holds an escaped NUL, the key's name or any escape (`\u005f_proto__` spells the key too).
 */
export function refuseNulInBody(text: string, data: unknown): void {
  refuse(data, {
    nul: text.includes('\\u0000'),
    proto: text.includes('__proto__') || text.includes('\\u'),
  });
}

/** Refuses a request URL whose query string holds a NUL (`%00`) in a name or a value. */
export function refuseNulInQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0 || !/%00/.test(url.slice(q))) return;
  for (const [name, value] of new URL(url, 'http://localhost').searchParams)
    if (name.includes('\u0000') || value.includes('\u0000')) throw refusal(`query.${name.replace(/\u0000/g, '')}`);
}
