/**
 * Counts the bytes a deflate stream inflates to without keeping them, stopping once a limit is passed: how the
 * document guards (pdf-inflate-guard.ts, zip-inflate-guard.ts) learn what a compressed part would cost before a
 * parser inflates it whole. Streams, so memory stays at one 256 KiB chunk whatever the ratio (a bomb's 1000:1).
 */
import { constants, createInflate, createInflateRaw } from 'node:zlib';

/**
 * Bytes `data` inflates to, counting at most `max + 1` (the limit is then known to be passed). `raw`: a bare
 * deflate stream (zip entries) instead of a zlib-wrapped one (PDF FlateDecode). Data that is not deflate, or is
 * truncated, counts what did inflate: the parser then fails on it with its own error.
 */
export function inflatedSize(data: Uint8Array, max: number, opts: { raw?: boolean } = {}): Promise<number> {
  return new Promise((resolve) => {
    let n = 0;
    const zopts = { finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 256 * 1024 };
    const inflate = opts.raw ? createInflateRaw(zopts) : createInflate(zopts);
    inflate.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > max) {
        inflate.destroy();
        resolve(n);
      }
    });
    inflate.on('end', () => resolve(n));
    inflate.on('error', () => resolve(n));
    inflate.on('close', () => resolve(n));
    inflate.end(data);
  });
}
