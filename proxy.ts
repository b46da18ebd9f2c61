/**
 * Next's proxy (it runs before every page): gives each page request a fresh nonce and the page security headers
 * (lib/http/page-security.ts). The API, Next's static files and the icon are not pages and are left alone; the
 * published API does not even pass through Next (server.mjs).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { chatFramePolicy, chatSlugOf, pageSecurityHeaders, type FramePolicy } from '@/lib/http/page-security';

export async function proxy(req: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const slug = chatSlugOf(req.nextUrl.pathname);
  const frame: FramePolicy = slug === null ? { kind: 'none' } : await chatFramePolicy(slug);
  const headers = pageSecurityHeaders({ nonce, dev: process.env.NODE_ENV === 'development', frame });
  // Next reads the nonce from the request's CSP and puts it on the scripts it renders; a client's own is replaced.
  const forwarded = new Headers(req.headers);
  forwarded.set('content-security-policy', headers['content-security-policy']);
  forwarded.set('x-nonce', nonce);
  const res = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

export const config = {
  matcher: ['/((?!api/|_next/static/|_next/image|icon\\.svg|favicon\\.ico).*)'],
};
