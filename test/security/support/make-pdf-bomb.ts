/**
 * A PDF bomb made on the spot (no binary fixture): a valid one-page PDF whose FlateDecode content stream inflates
 * to `inflatedBytes` of zeros (about 1 GB by default, about 1 MB on disk). Deflate is fed one zero block many times,
 * so making it never holds the inflated gigabyte. xref offsets are computed, so strict parsers accept the file.
 * `text`: a line of real text drawn before the zeros, so the page is not empty when the stream is cut short.
 */
import { constants, deflateRawSync } from 'node:zlib';

export function makePdfBomb(opts: { inflatedBytes?: number; text?: string } = {}): Uint8Array {
  const total = opts.inflatedBytes ?? 1024 * 1024 * 1024;
  const text = opts.text ?? 'Quarterly report';
  const head = Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET\n`, 'latin1');
  const content = deflateZeros(head, total - head.length);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [];
  let size = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    size += buf.length;
  };
  const offsets: number[] = [];
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  objects.forEach((body, i) => {
    offsets.push(size);
    push(`${i + 1} 0 obj\n${body}\nendobj\n`);
  });
  offsets.push(size);
  push(`5 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`);
  push(content);
  push('\nendstream\nendobj\n');
  const xref = size;
  const n = offsets.length + 1;
  push(
    `xref\n0 ${n}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`,
  );
  push(`trailer\n<< /Size ${n} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

/** zlib data for `head` followed by `zeros` zero bytes, made from one 1 MiB zero block deflated over and over. */
function deflateZeros(head: Buffer, zeros: number): Buffer {
  // A raw deflate stream is a series of blocks; a full flush ends each one on a byte boundary, so pieces made by
  // separate deflate calls on the same settings can be concatenated. The zlib wrapper (header + Adler-32) is ours.
  const block = Buffer.alloc(1024 * 1024);
  const raw = (b: Buffer, last: boolean) =>
    deflateRawSync(b, { level: 9, finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH });
  const pieces: Buffer[] = [Buffer.from([0x78, 0xda]), raw(head, false)];
  const zeroPiece = raw(block, false);
  let left = zeros;
  while (left > block.length) {
    pieces.push(zeroPiece);
    left -= block.length;
  }
  pieces.push(raw(Buffer.alloc(left), true));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(adler32(head, zeros));
  pieces.push(adler);
  return Buffer.concat(pieces);
}

/** Adler-32 of `head` followed by `zeros` zero bytes (zeros leave a unchanged and add a to b each). */
function adler32(head: Buffer, zeros: number): number {
  const MOD = 65521;
  let a = 1;
  let b = 0;
  for (const byte of head) {
    a = (a + byte) % MOD;
    b = (b + a) % MOD;
  }
  b = (b + (((zeros % MOD) * a) % MOD)) % MOD;
  return ((b << 16) | a) >>> 0;
}
