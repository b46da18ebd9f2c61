/**
 * Writes real .docx files for the tests without shipping binaries: a minimal zip writer (stored or deflated
 * entries, UTF-8 names, CRC-32) and the three parts Word needs ([Content_Types].xml, _rels/.rels,
 * word/document.xml). Also makes zip bombs: an entry of zeros that inflates ~1000:1, optionally with a lying
 * uncompressed size in its headers.
 */
import { createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipInput {
  name: string;
  data?: Uint8Array | string;
  /** Store instead of deflate. */
  store?: boolean;
  /** Already-deflated bytes (with `size`, the real inflated size) instead of `data`. */
  deflated?: { bytes: Uint8Array; size: number };
  /** The uncompressed size written in the headers (default: the real one). */
  declaredSize?: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function makeZip(files: ZipInput[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const raw = typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : Buffer.from(f.data ?? []);
    const method = f.store ? 0 : 8;
    const body = f.deflated ? Buffer.from(f.deflated.bytes) : f.store ? raw : deflateRawSync(raw);
    const size = f.declaredSize ?? (f.deflated ? f.deflated.size : raw.length);
    const crc = f.deflated ? 0 : crc32(raw);
    const head = (sig: number, len: number) => {
      const h = Buffer.alloc(len);
      h.writeUInt32LE(sig, 0);
      return h;
    };
    const local = head(0x04034b50, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = head(0x02014b50, 46);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, end]));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A paragraph: text, optionally a heading (Word's built-in Heading1/Heading2 styles). A row array is a table. */
export type DocxBlock = { text: string; heading?: 1 | 2 } | { table: string[][] };

export function documentXml(blocks: DocxBlock[]): string {
  const para = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}` +
    `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const row = (cells: string[]) => `<w:tr>${cells.map((c) => `<w:tc>${para(c)}</w:tc>`).join('')}</w:tr>`;
  const body = blocks
    .map((b) =>
      'table' in b
        ? `<w:tbl>${b.table.map(row).join('')}</w:tbl>`
        : para(b.text, b.heading ? `Heading${b.heading}` : undefined),
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
    `<w:body>${body}</w:body></w:document>`
  );
}

/** The package parts around word/document.xml. */
export const DOCX_PACKAGE: ZipInput[] = [
  {
    name: '[Content_Types].xml',
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  },
  {
    name: '_rels/.rels',
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Target="word/document.xml" ' +
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>',
  },
];

export function makeDocx(blocks: DocxBlock[]): Uint8Array {
  return makeZip([...DOCX_PACKAGE, { name: 'word/document.xml', data: documentXml(blocks) }]);
}

/** `mib` MiB of zeros, deflated in a stream (a few hundred KB for 256 MiB; never held inflated). */
export async function deflatedZeros(mib: number): Promise<{ bytes: Uint8Array; size: number }> {
  const parts: Buffer[] = [];
  const d = createDeflateRaw({ level: 9 });
  d.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((ok, fail) => d.on('end', ok).on('error', fail));
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < mib; i++) if (!d.write(zeros)) await new Promise((ok) => d.once('drain', ok));
  d.end();
  await done;
  return { bytes: new Uint8Array(Buffer.concat(parts)), size: mib << 20 };
}

/**
 * A .docx whose word/document.xml is a valid start followed by `mib` MiB of zeros; `lie`: its headers say the part
 * is 1,000 bytes (so only counting what it really inflates to catches it).
 */
export async function makeDocxBomb(mib: number, lie = false): Promise<Uint8Array> {
  const zeros = await deflatedZeros(mib);
  return makeZip([
    ...DOCX_PACKAGE,
    { name: 'word/document.xml', deflated: zeros, ...(lie ? { declaredSize: 1000 } : {}) },
  ]);
}
