/** Removes secret-looking values before anything reaches snapshots, events or logs. */
const SENSITIVE = /(api[-_]?key|secret|passw(or)?d|token|authorization|cookie|credential)/i;

export function redact<T>(value: T, depth = 0): T {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    return value.map((v) => {
      // {key, value} pairs (HTTP headers): judge by the key's content.
      if (
        v &&
        typeof v === 'object' &&
        'key' in v &&
        'value' in v &&
        SENSITIVE.test(String((v as { key: unknown }).key))
      ) {
        return { ...v, value: '[redacted]' };
      }
      return redact(v, depth + 1);
    }) as T;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SENSITIVE.test(k) && typeof v === 'string' && !/Secret$|^credentialId$/.test(k)
        ? '[redacted]'
        : redact(v, depth + 1);
  }
  return out as T;
}
