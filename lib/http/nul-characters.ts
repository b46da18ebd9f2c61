/**
 * NUL (U+0000) cannot be stored: PostgreSQL refuses it in text and JSON, so a NUL anywhere in a request would fail
 * in the database as a 500. Requests are checked for it once, where they are read — the JSON body (lib/http/body.ts)
 * and the query string (route() in lib/http/errors.ts) — and refused with 400 INVALID_CHARACTER naming the field.
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

/** Refuses a parsed JSON body holding a NUL (`text` is its source: without an escaped NUL there is nothing to do). */
export function refuseNulInBody(text: string, data: unknown): void {
  if (text.includes('\\u0000')) refuseNul(data);
}

/** Refuses a request URL whose query string holds a NUL (`%00`) in a name or a value. */
export function refuseNulInQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0 || !/%00/.test(url.slice(q))) return;
  for (const [name, value] of new URL(url, 'http://localhost').searchParams)
    if (name.includes('\u0000') || value.includes('\u0000')) throw refusal(`query.${name.replace(/\u0000/g, '')}`);
}
