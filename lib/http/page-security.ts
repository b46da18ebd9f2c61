/**
 * The security headers of every page (proxy.ts sets them): a Content-Security-Policy whose scripts must carry the
 * request's nonce (Next puts it on its own scripts, inline ones included, when it finds it in the request's CSP), and
 * `frame-ancestors 'none'` with `X-Frame-Options: DENY`, so no other site can frame the editor or a settings page.
 *
 * The one exception is a chat app's page, /chat/:slug: the embed snippet shows it in an iframe on other sites. It may
 * be framed by the origins its chat app allows (`chat.embedOrigins`, default any site), and by PaiFlow itself. The
 * proxy learns them from a lookup the server registers on globalThis (lib/server/chat/embed-origins.ts), so that the
 * proxy bundle does not carry the app; until the app has registered it, a chat page is framable by PaiFlow only.
 */

/** A chat app's page: `/chat/<slug>` (not its embed script). */
const CHAT_PAGE_RE = /^\/chat\/([^/]+)\/?$/;

/** The slug of a chat page's path, or null for any other page. */
export function chatSlugOf(pathname: string): string | null {
  const m = CHAT_PAGE_RE.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/**
 * Who may frame a page: `none` (every page but a chat app's), or a chat app's embed origins (`*` for any site; an
 * empty list for none but PaiFlow itself).
 */
export type FramePolicy = { kind: 'none' } | { kind: 'origins'; origins: readonly string[] };

/** An origin as CSP takes it: only `scheme://host[:port]`, nothing that could end the directive. */
const ORIGIN_RE = /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/;

function frameAncestors(policy: FramePolicy): string {
  if (policy.kind === 'none') return "'none'";
  if (policy.origins.includes('*')) return '*';
  return ["'self'", ...policy.origins.filter((o) => ORIGIN_RE.test(o))].join(' ');
}

/**
 * The headers of a page answered with `nonce`. `dev`: `next dev`, whose React needs `eval` for its error overlay and
 * stack traces (the production build does not).
 */
export function pageSecurityHeaders(o: { nonce: string; dev: boolean; frame: FramePolicy }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    // 'strict-dynamic': a script the nonce'd ones load is trusted too (Next's chunks); nothing else runs.
    `script-src 'self' 'nonce-${o.nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ''}`,
    // React and React Flow position things with style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Run artifacts (images, speech) are same-origin files; previews and uploads use blob: and data: URLs.
    "img-src 'self' blob: data:",
    "media-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors(o.frame)}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    // For browsers that predate frame-ancestors; a chat page relies on the CSP alone (no X-Frame-Options value can
    // name several origins).
    ...(o.frame.kind === 'none' ? { 'x-frame-options': 'DENY' } : {}),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

/** Answers a chat app's embed origins by its slug; null when the slug has no chat app. */
export type EmbedOriginsLookup = (slug: string) => Promise<readonly string[] | null>;

const LOOKUP = Symbol.for('paiflow.chatEmbedOrigins');
const registry = globalThis as unknown as Record<symbol, EmbedOriginsLookup | undefined>;

/** Registers the lookup (the server does, when its chat modules load). */
export function provideEmbedOrigins(lookup: EmbedOriginsLookup): void {
  registry[LOOKUP] = lookup;
}

/** Who may frame the chat page of `slug`: its app's embed origins; PaiFlow only when unknown or on failure. */
export async function chatFramePolicy(slug: string): Promise<FramePolicy> {
  const lookup = registry[LOOKUP];
  if (!lookup) return { kind: 'origins', origins: [] };
  try {
    const origins = await lookup(slug);
    return origins ? { kind: 'origins', origins } : { kind: 'none' };
  } catch {
    return { kind: 'origins', origins: [] };
  }
}
