/**
 * Guarantee: a .csv upload becomes one line per row, "column: value; column: value" with the header row as the
 * keys (UTF-8 with or without a byte-order mark, Chinese kept; quoted commas and line breaks inside cells handled;
 * `;` and tab delimiters found), chunks hold whole rows — a row that fits in a chunk is never cut or spread over two —
 * and the rows are searchable through the API in English and Chinese, from a file or from JSON with
 * mime text/csv. A CSV that is not UTF-8 or is malformed fails only that document (DOCUMENT_PARSE_FAILED), and one
 * whose lines would pass DOCUMENT_MAX_CHARS fails with DOCUMENT_TOO_LARGE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { prepareDocument, type DocumentLimits } from '@/engine/knowledge/prepare-document';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { createKnowledgeBase, searchKb, uploadFile, waitSettled } from './support/upload-helpers';

useFreshDataDir('paiflow-csv-');
process.env.SEED_EXAMPLE = '0';

const LIMITS: DocumentLimits = { maxChars: 5_000_000, maxInflatedBytes: 128 << 20, maxPages: 2000, maxChunks: 20_000 };
const utf8 = (s: string) => new TextEncoder().encode(s);
const BOM = '\ufeff';
/** The first upload loads the offline embedding model, which on a busy machine takes longer than the default. */
const SLOW = 180_000;

/** 30 products; row i is "sku: P-i; 名称: …; price: …; notes: …" once parsed. */
const ROWS = Array.from({ length: 30 }, (_, i) => ({
  sku: `P-${100 + i}`,
  name: i === 7 ? '无线鼠标' : `Gadget ${i}`,
  price: `${(i + 1) * 3}.50`,
  notes: i === 7 ? '续航一年，支持蓝牙' : i === 12 ? 'fragile, ships in "double" box\nkeep upright' : `batch ${i}`,
}));
const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const CSV =
  BOM +
  'sku,名称,price,notes\r\n' +
  ROWS.map((r) => [r.sku, r.name, r.price, r.notes].map(quote).join(',')).join('\r\n') +
  '\r\n\r\n';
const lineOf = (r: (typeof ROWS)[number]) =>
  `sku: ${r.sku}; 名称: ${r.name}; price: ${r.price}; notes: ${r.notes.replace(/\s+/g, ' ')}`;

describe('CSV parsing and chunking (in-process)', () => {
  it('makes one line per row and chunks of whole rows, a long row alone being cut', async () => {
    const long = { sku: 'P-999', name: 'Long', price: '1', notes: 'word '.repeat(60).trim() };
    const csv = CSV + [long.sku, long.name, long.price, long.notes].join(',') + '\n';
    const prepared = await prepareDocument({
      bytes: utf8(csv),
      mime: 'text/csv',
      chunkSize: 200,
      chunkOverlap: 40,
      limits: LIMITS,
    });
    const lines = ROWS.map(lineOf);
    expect(prepared.text).toBe([...lines, lineOf(long)].join('\n'));
    const chunks = Array.from(prepared.starts, (s, i) => prepared.text.slice(s, prepared.ends[i]));
    expect(chunks.length).toBeGreaterThan(5);
    const longChunks = chunks.filter((c) => c.includes('word'));
    expect(longChunks.length).toBeGreaterThan(1); // 330 characters in 200-character chunks
    const rowChunks = chunks.filter((c) => !c.includes('word'));
    for (const c of rowChunks) {
      expect(c.length).toBeLessThanOrEqual(200);
      for (const l of c.split('\n')) expect(lines, `"${l}" is a whole row`).toContain(l);
    }
    // Every row is in exactly one chunk: no overlap repeats a row, none is lost.
    expect(rowChunks.flatMap((c) => c.split('\n'))).toEqual(lines);
  });

  it('finds the delimiter, drops empty cells and names headerless columns', async () => {
    const semi = await prepareDocument({
      bytes: utf8('城市;人口;\n上海;2487万;直辖市\n;;\n北京;;首都\n'),
      mime: 'text/csv',
      chunkSize: 512,
      chunkOverlap: 0,
      limits: LIMITS,
    });
    expect(semi.text).toBe('城市: 上海; 人口: 2487万; column 3: 直辖市\n城市: 北京; column 3: 首都');
    const tsv = await prepareDocument({
      text: 'a\tb\n1,5\t2\n',
      mime: 'text/csv',
      chunkSize: 512,
      chunkOverlap: 0,
      limits: LIMITS,
    });
    expect(tsv.text).toBe('a: 1,5; b: 2');
  });

  it('fails a CSV that is not UTF-8, is malformed, or expands past DOCUMENT_MAX_CHARS', async () => {
    const run = (bytes: Uint8Array, limits = LIMITS) =>
      prepareDocument({ bytes, mime: 'text/csv', chunkSize: 512, chunkOverlap: 0, limits }).then(
        () => 'OK',
        (e) => `${e.code}: ${e.message}`,
      );
    const gbk = new Uint8Array([0xc3, 0xfb, 0xb3, 0xc6, 0x2c, 0x61, 0x0a, 0xd6, 0xd0, 0x2c, 0x62, 0x0a]); // 名称,a / 中,b
    expect(await run(gbk)).toMatch(/^DOCUMENT_PARSE_FAILED: .*not UTF-8/);
    expect(await run(utf8('a,b\n"unclosed,2\n'))).toMatch(/^DOCUMENT_PARSE_FAILED: the CSV could not be read/);
    // 100 short rows under a long header: 1.4 KB of CSV, ~23 KB of lines.
    const wide = 'x'.repeat(200) + ',y\n' + '1,2\n'.repeat(100);
    expect(await run(utf8(wide), { ...LIMITS, maxChars: 10_000 })).toMatch(/^DOCUMENT_TOO_LARGE: /);
  });
});

describe('CSV uploads over HTTP', () => {
  let kbId = '';
  beforeAll(async () => {
    await getApp();
    kbId = await createKnowledgeBase('Price lists', { chunkSize: 300, chunkOverlap: 50 });
  });
  afterAll(async () => {
    await (await getApp()).close();
  });

  it(
    'rows are searchable in English and Chinese, each hit made of whole rows',
    async () => {
      expect((await uploadFile(kbId, 'products.csv', 'text/csv', utf8(CSV))).status).toBe(202);
      const json = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
        params: { id: kbId },
        body: { title: 'Offices', mime: 'text/csv', text: 'office,manager\nLisbon,Ana Duarte\n深圳,王芳\n' },
      });
      expect(json.status, json.text).toBe(202);
      // A Windows browser may send a .csv as application/vnd.ms-excel: the extension decides.
      const excel = await uploadFile(kbId, 'stock.csv', 'application/vnd.ms-excel', utf8('item,qty\nbolts,4000\n'));
      expect(excel.status).toBe(202);
      expect(excel.body.mime).toBe('text/csv');
      const docs = await waitSettled(kbId);
      for (const d of docs) expect(d, d.title).toMatchObject({ status: 'indexed', error: null });
      expect(docs.find((d) => d.title === 'products').chunkCount).toBeGreaterThan(3);

      const zh = await searchKb(kbId, '无线鼠标');
      expect(zh.body.hits[0].title).toBe('products');
      expect(zh.body.hits[0].text).toContain(lineOf(ROWS[7]));
      const en = await searchKb(kbId, 'fragile upright', { mode: 'bm25' });
      expect(en.body.hits[0].text).toContain(lineOf(ROWS[12]));
      const lines = new Set(ROWS.map(lineOf));
      for (const hit of (await searchKb(kbId, 'gadget batch', { topK: 20, mode: 'bm25' })).body.hits)
        if (hit.title === 'products') for (const l of hit.text.split('\n')) expect(lines.has(l), l).toBe(true);
      expect((await searchKb(kbId, '王芳')).body.hits[0].text).toContain('office: 深圳; manager: 王芳');
      expect((await searchKb(kbId, 'bolts', { mode: 'bm25' })).body.hits[0].text).toBe('item: bolts; qty: 4000');
    },
    SLOW,
  );

  it(
    'a CSV that cannot be read fails alone with DOCUMENT_PARSE_FAILED',
    async () => {
      const latin1 = new Uint8Array([...utf8('name,city\nRen'), 0xe9, ...utf8(',Paris\n')]);
      expect((await uploadFile(kbId, 'latin1.csv', 'text/csv', latin1)).status).toBe(202);
      expect((await uploadFile(kbId, 'after.csv', 'text/csv', utf8('team,floor\nsupport,3\n'))).status).toBe(202);
      const docs = await waitSettled(kbId);
      expect(docs.find((d) => d.title === 'latin1')).toMatchObject({
        status: 'failed',
        error: { code: 'DOCUMENT_PARSE_FAILED' },
      });
      expect(docs.find((d) => d.title === 'after')).toMatchObject({ status: 'indexed' });
      expect(docs.filter((d) => d.status === 'failed')).toHaveLength(1);
      expectNoServerErrorsOrStacks();
    },
    SLOW,
  );
});
