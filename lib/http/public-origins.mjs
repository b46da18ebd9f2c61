// Which Host a request may name (DNS-rebinding defence), shared by the production server (server.mjs) and the
// route code. A rebinding page reaches the server under the attacker's own host name, so the server answers only
// for the host names it was told are its own (PUBLIC_URL: one origin or a comma-separated list; the first is the
// canonical one, used in links), for `localhost` / `*.localhost` and for IP literals — names no attacker can
// point at this server. Behind a proxy (TRUST_PROXY=1) the proxy's X-Forwarded-Host counts instead of Host.
import { isIP } from 'node:net';
import { parsePublicUrl } from '../../engine/config/public-url.mjs';

/**
 * The configured public origins, normalised (`https://paiflow.example.com`); throws on an entry that is not one. The
 * app reads them as settings().PUBLIC_URL; this is for server.mjs, which runs before any TypeScript is loaded.
 */
export function publicOrigins(env) {
  try {
    return parsePublicUrl(env.PUBLIC_URL);
  } catch (e) {
    throw new Error(`PUBLIC_URL: ${e.message}`);
  }
}

/** `host[:port]` parsed as a URL would (lower case, default port dropped), or null when it is not just a host. */
function normalHost(host) {
  if (/[\s/\\@?#]/.test(host)) return null;
  try {
    return new URL(`http://${host}`);
  } catch {
    return null;
  }
}

/** A checker for Host headers: `(host, forwardedHost?) => boolean`. */
export function hostChecker(env) {
  const allowed = new Set(publicOrigins(env).map((o) => new URL(o).host));
  const trustProxy = env.TRUST_PROXY === '1';
  return (host, forwardedHost) => {
    const named = (trustProxy && forwardedHost ? forwardedHost.split(',')[0].trim() : host) ?? '';
    // HTTP/1.0 without Host: no browser sends that, so no rebinding either.
    if (!named) return true;
    const u = normalHost(named);
    if (!u) return false;
    if (allowed.has(u.host)) return true;
    const name = u.hostname.replace(/^\[|\]$/g, '');
    return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0;
  };
}

/** The 421 answer for a Host this server does not answer for (JSON, like every API error). */
export function hostRefusal(host) {
  return JSON.stringify({
    error: {
      code: 'HOST_NOT_ALLOWED',
      message:
        `this server does not answer for the host "${String(host).slice(0, 200)}"; ` +
        'if that is its public address, add the origin to PUBLIC_URL (e.g. PUBLIC_URL=https://paiflow.example.com)',
    },
  });
}
