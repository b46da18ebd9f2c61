// PUBLIC_URL's parser, in plain JavaScript so that the production server (server.mjs, which runs before any
// TypeScript is loaded) and the configuration module (settings.ts) read the variable the same way.

/** The origins in a PUBLIC_URL value (one origin or a comma-separated list), normalised; throws on a bad entry
 * (the message names the entry, not the variable). */
export function parsePublicUrl(value) {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      let u;
      try {
        u = new URL(s);
      } catch {
        throw new Error(`entry "${s}" is not a URL (give origins like https://paiflow.example.com)`);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`entry "${s}" is not http(s)`);
      return u.origin;
    });
}
