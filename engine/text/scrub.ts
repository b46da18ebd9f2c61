/**
 * Replaces every occurrence of known secret values in a value (strings, deeply) with "[redacted]": for answers of a
 * server that echoes a secret it was sent (debug endpoints, error pages), before they are stored or traced.
 */
export function scrub<T>(value: T, secrets: string[], depth = 0): T {
  const list = secrets.filter((s) => s.length >= 4);
  if (!list.length) return value;
  const inString = (s: string) => list.reduce((acc, secret) => acc.split(secret).join('[redacted]'), s);
  const walk = (v: unknown, d: number): unknown => {
    if (typeof v === 'string') return inString(v);
    if (d > 50 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, d + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [inString(k), walk(x, d + 1)]));
  };
  return walk(value, depth) as T;
}
