/**
 * Downloads a file a node was pointed at (an image URL a provider answered, an image input) through the node's
 * SSRF-guarded fetch, with a size cap that holds while the body streams in (a missing or false Content-Length does
 * not get past it).
 */
import { PaiError } from '../errors';
import type { GuardedFetch } from '../net/ssrf-guard';

export interface FetchedFile {
  bytes: Uint8Array;
  contentType: string;
}

export async function fetchBytes(
  fetch: GuardedFetch,
  url: string,
  o: { maxBytes: number; signal?: AbortSignal; path: string; timeoutMs?: number },
): Promise<FetchedFile> {
  const res = await fetch(url, { signal: o.signal, timeoutMs: o.timeoutMs ?? 60_000 });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new PaiError('FETCH_FAILED', `${new URL(url).host} answered HTTP ${res.status} for the file`, {
      path: o.path,
      retryable: res.status >= 500 || res.status === 429,
    });
  }
  const tooLarge = () =>
    new PaiError('FILE_TOO_LARGE', `the file at ${new URL(url).host} is larger than ${o.maxBytes} bytes`, {
      path: o.path,
    });
  if (Number(res.headers.get('content-length') ?? 0) > o.maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  for (;;) {
    if (!reader) break;
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > o.maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, contentType: (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() };
}

/** The image type the bytes start with (PNG, JPEG, GIF, WebP), else undefined. */
export function sniffImageType(b: Uint8Array): string | undefined {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  if (String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP')
    return 'image/webp';
  return undefined;
}
