/**
 * The HTTP answer of an artifact (GET /api/artifacts/:id and its published twin): its bytes with its content type and
 * length, `inline` with its file name, and headers that keep a stored file from acting as a page of this origin —
 * `nosniff`, and a CSP of `default-src 'none'; sandbox`, so an SVG or HTML artifact opened in the browser runs no
 * script and loads nothing. One byte range (`Range: bytes=…`) is served, which audio players use to seek; the
 * sha256 is the ETag.
 */
import { PaiError } from '@/engine/errors';
import type { StoredArtifact } from '@/engine/artifacts/types';

/** `attachment`-safe ASCII fallback plus the RFC 5987 UTF-8 name. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function range(header: string | null, size: number): { start: number; end: number } | 'none' | 'bad' {
  if (!header) return 'none';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return 'none'; // several ranges or another unit: the whole file (RFC 9110 allows it)
  let start: number;
  let end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  return start > end || start >= size ? 'bad' : { start, end };
}

export function artifactResponse(req: Request, { record, bytes }: StoredArtifact, extra: HeadersInit = {}): Response {
  const etag = `"${record.sha256}"`;
  const headers = new Headers(extra);
  headers.set('content-type', record.contentType);
  headers.set('content-disposition', disposition(record.name));
  headers.set('x-content-type-options', 'nosniff');
  headers.set('content-security-policy', "default-src 'none'; sandbox");
  headers.set('cache-control', 'private, no-cache');
  headers.set('accept-ranges', 'bytes');
  headers.set('etag', etag);
  if (
    req.headers
      .get('if-none-match')
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });
  const r = range(req.headers.get('range'), bytes.byteLength);
  if (r === 'bad')
    throw new PaiError('RANGE_NOT_SATISFIABLE', `the artifact has ${bytes.byteLength} bytes`, {
      path: 'headers.range',
    });
  if (r === 'none') {
    headers.set('content-length', String(bytes.byteLength));
    return new Response(bytes as BodyInit, { status: 200, headers });
  }
  headers.set('content-range', `bytes ${r.start}-${r.end}/${bytes.byteLength}`);
  headers.set('content-length', String(r.end - r.start + 1));
  return new Response(bytes.subarray(r.start, r.end + 1) as BodyInit, { status: 206, headers });
}
