/** What a request says about where it comes from: client address, HTTPS, and whether it is same-origin. */
import { PaiError } from '@/engine/errors';
import { settings } from '@/engine/config/settings';

/**
 * The client address, for throttling and the audit log. Behind a reverse proxy (TRUST_PROXY=1): the last
 * X-Forwarded-For entry, the one the proxy appended (earlier entries are whatever the client claimed). Otherwise the
 * connecting address, which the production server (server.mjs) puts in X-PaiFlow-Client-Ip with a per-process tag
 * over any value the client sent; "unknown" where neither exists (`next dev`).
 */
export function clientIp(req: Request): string {
  if (settings().TRUST_PROXY) {
    const last = req.headers.get('x-forwarded-for')?.split(',').pop()?.trim();
    if (last) return last;
  }
  // `<tag> <address>`, where the tag is this process's secret (so a client cannot send the header itself).
  const [tag, address] = (req.headers.get('x-paiflow-client-ip') ?? '').split(' ');
  const ours = settings().PAIFLOW_CLIENT_IP_TAG;
  return ours && tag === ours && address ? address : 'unknown';
}

export function isHttps(req: Request): boolean {
  if (settings().COOKIE_SECURE) return true;
  const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return proto === 'https' || new URL(req.url).protocol === 'https:';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF check for requests a browser may send with our cookie: a state-changing request must come from our own
 * origin. Browsers say so in Sec-Fetch-Site (or, older ones, in Origin); a request with neither header is not from
 * a browser page and cannot carry a victim's cookie by itself.
 */
export function checkSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw csrf(`the request came from a ${site} page`);
  const origin = req.headers.get('origin');
  if (!origin) return;
  if (origin === 'null') throw csrf('the request came from an opaque origin');
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw csrf('the Origin header is not a URL');
  }
  const allowed = new Set(
    [req.headers.get('x-forwarded-host'), req.headers.get('host'), new URL(req.url).host]
      .concat(settings().PUBLIC_URL.map((o) => new URL(o).host))
      .filter((h): h is string => !!h),
  );
  if (!allowed.has(host)) throw csrf(`the request came from another origin (${origin})`);
}

function csrf(why: string): PaiError {
  return new PaiError('CSRF_REJECTED', `cross-site request refused: ${why}`);
}
