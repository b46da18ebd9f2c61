/**
 * Pieces of PaiFlow's template syntax an import writes: a reference `{{n1.output.text}}` from a path, a fallback
 * chain `{{a || b}}`, and literal text in which a `{{` of the source must not open a reference.
 */

/** Path segments as PaiFlow's path resolver reads them: `a.b[0]["c d"]`. */
export function joinPath(base: string, segments: ReadonlyArray<string | number>): string {
  let out = base;
  for (const s of segments) {
    if (typeof s === 'number' || /^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(s) && !['__proto__', 'constructor', 'prototype'].includes(s))
      out += `.${s}`;
    else if (!s.includes('"') && !s.includes('\\')) out += `["${s}"]`;
    else out += `['${s.replace(/'/g, '')}']`;
  }
  return out;
}

/** `{{a || b || "x"}}` from alternative paths (first non-empty wins) and an optional literal fallback. */
export function refOf(paths: readonly string[], fallback?: string): string {
  const alts = [...new Set(paths)];
  if (fallback !== undefined && !/[\\{}]/.test(fallback)) {
    if (!fallback.includes("'")) alts.push(`'${fallback}'`);
    else if (!fallback.includes('"')) alts.push(`"${fallback}"`);
  }
  return alts.length ? `{{${alts.join(' || ')}}}` : '';
}

/** Source text kept as text: a `{{` in it would open a PaiFlow reference, so it becomes `{ {`. */
export function literal(text: string): string {
  return text.replace(/\{\{/g, '{ {');
}

/** A key of an object an import builds: one that would rewire the object (`__proto__` …) gets a `_` after it. */
export const safeKey = (key: string) => (['__proto__', 'constructor', 'prototype'].includes(key) ? `${key}_` : key);

/** An identifier PaiFlow accepts for a start input or an end output (`user name` → `user_name`). */
export function identifier(name: string, fallback: string): string {
  const s = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  const id = /^[A-Za-z_]/.test(s) ? s : s ? `_${s}` : fallback;
  return ['__proto__', 'constructor', 'prototype'].includes(id) ? `${id}_` : id.slice(0, 100);
}
