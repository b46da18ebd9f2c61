/**
 * OTEL_EXPORTER_OTLP_HEADERS as the OpenTelemetry spec writes it: `key=value` pairs separated by commas, values
 * percent-decoded (`api-key=abc%3D%3D,x-team=ml`). Sent to the collector only; never part of a span.
 */
export function parseOtlpHeaders(raw: string | undefined): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) throw new Error('has an entry that is not key=value');
    try {
      out[key.toLowerCase()] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      throw new Error(`has a badly percent-encoded value for ${key}`);
    }
  }
  return Object.freeze(out);
}
