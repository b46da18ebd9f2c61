/**
 * Guarantee: the zip check that runs before mammoth/JSZip open a .docx bounds what the archive inflates to, or
 * refuses it. Overlapping entries (several directory entries sharing one compressed kernel, the "non-recursive"
 * bomb) count once each; archives it cannot read the way JSZip does — data prepended, encrypted or unknown-method
 * entries, zip64 markers, a directory that disagrees with its count, too many entries — fail with
 * DOCUMENT_PARSE_FAILED; a normal archive passes with its entries listed.
 */
import { describe, expect, it } from 'vitest';
import { PaiError } from '@/engine/errors';
import { checkZipInflatedSize, MAX_ZIP_ENTRIES } from '@/engine/knowledge/zip-inflate-guard';
import { deflatedZeros, makeDocx, makeZip } from './support/make-docx';

const MAX = 128 << 20;

async function codeOf(bytes: Uint8Array, max = MAX): Promise<string> {
  try {
    await checkZipInflatedSize(bytes, max, 'the .docx');
    return 'OK';
  } catch (e) {
    expect(e).toBeInstanceOf(PaiError);
    return (e as PaiError).code;
  }
}

/** The archive's parts: everything before the directory, the directory, the end record. */
function split(zip: Uint8Array) {
  const b = Buffer.from(zip);
  const eocd = b.length - 22;
  const dirOffset = b.readUInt32LE(eocd + 16);
  return { body: b.subarray(0, dirOffset), dir: b.subarray(dirOffset, eocd), end: Buffer.from(b.subarray(eocd)) };
}

describe('zip inflate guard', () => {
  it('passes a normal .docx and lists its parts', async () => {
    const entries = await checkZipInflatedSize(makeDocx([{ text: 'hello' }]), MAX);
    expect(entries.map((e) => e.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
  });

  it('counts overlapping entries once each, whatever their headers declare', async () => {
    const kernel = await deflatedZeros(80); // 80 MiB: under the limit once, over it twice
    const one = makeZip([{ name: 'a.xml', deflated: kernel, declaredSize: 1000 }]);
    expect(await codeOf(one)).toBe('OK');
    const { body, dir, end } = split(one);
    const second = Buffer.from(dir);
    second.write('b', 46, 'utf8'); // same local header and data, another name
    end.writeUInt16LE(2, 8);
    end.writeUInt16LE(2, 10);
    end.writeUInt32LE(dir.length * 2, 12);
    const overlapping = new Uint8Array(Buffer.concat([body, dir, second, end]));
    expect(await codeOf(overlapping)).toBe('DOCUMENT_INFLATED_TOO_LARGE');
  });

  it('refuses what JSZip might read differently or what cannot be bounded', async () => {
    const good = makeDocx([{ text: 'hello' }]);
    const patched = (edit: (b: Buffer) => void) => {
      const b = Buffer.from(good);
      edit(b);
      return new Uint8Array(b);
    };
    const dirOffset = Buffer.from(good).readUInt32LE(good.length - 22 + 16);
    const cases: Record<string, Uint8Array> = {
      prepended: new Uint8Array(Buffer.concat([Buffer.from('#!/bin/sh\n'), Buffer.from(good)])),
      encrypted: patched((b) => b.writeUInt16LE(0x0801, dirOffset + 8)),
      bzip2: patched((b) => b.writeUInt16LE(12, dirOffset + 10)),
      zip64: patched((b) => b.writeUInt32LE(0xffffffff, dirOffset + 24)),
      miscounted: patched((b) => b.writeUInt16LE(4, b.length - 22 + 10)),
      empty: new Uint8Array(0),
    };
    for (const [name, bytes] of Object.entries(cases)) expect(await codeOf(bytes), name).toBe('DOCUMENT_PARSE_FAILED');
    const many = makeZip(
      Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => ({ name: `${i}`, data: '', store: true })),
    );
    expect(await codeOf(many)).toBe('DOCUMENT_PARSE_FAILED');
  });

  it('stops counting at the limit it is given', async () => {
    const zip = makeZip([{ name: 'word/document.xml', deflated: await deflatedZeros(2), declaredSize: 10 }]);
    expect(await codeOf(zip, 1 << 20)).toBe('DOCUMENT_INFLATED_TOO_LARGE');
    expect(await codeOf(zip, 3 << 20)).toBe('OK');
  });
});
