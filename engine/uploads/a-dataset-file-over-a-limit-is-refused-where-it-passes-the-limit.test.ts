// Guarantee: a dataset file over a limit — rows, columns, a value's length, nesting, the rows' JSON size — is refused
// with the limit's own code, the line and the limit named, as soon as the reading passes the limit (the red team's
// 1.5 M-column, 9 M-row and 5 M-deep files are refused in milliseconds, not after a whole parse); a file within the
// limits reads as before (Chinese text, a byte-order mark, quoted line breaks, `expected.<field>` and `tags` columns,
// tab-separated files, blank JSONL lines).
import { describe, expect, it } from 'vitest';
import { csvWithColumns, csvWithRows, jsonlNested } from '@/test/support/hostile-documents';
import { checkCsvShape } from './csv-shape';
import { readDatasetFile, type DatasetFileLimits } from './dataset-file';

const LIMITS: DatasetFileLimits = {
  maxRows: 10_000,
  maxColumns: 200,
  maxCellChars: 100_000,
  maxBytes: 8 * 1024 * 1024,
  maxDepth: 256,
};
const bytes = (s: string) => new TextEncoder().encode(s);
const read = (name: string, s: string, limits: Partial<DatasetFileLimits> = {}) =>
  readDatasetFile(name, bytes(s), { ...LIMITS, ...limits });
const rowsOf = async (name: string, s: string) => JSON.parse((await read(name, s)).rowsJson) as unknown[];

/** The error `p` rejects with, and how long it took to come. */
async function refusal(p: () => Promise<unknown>) {
  const t0 = performance.now();
  const e = await p().then(
    () => null,
    (err: unknown) => err as { code: string; message: string; path?: string; details?: { line?: number } },
  );
  return { e, ms: performance.now() - t0 };
}

describe('the red team files are refused where they pass a limit', () => {
  it('a CSV header of 1.5 M columns: DATASET_TOO_MANY_COLUMNS at column 201 of line 1', async () => {
    const csv = csvWithColumns(1_500_000);
    const { e, ms } = await refusal(() => read('columns.csv', csv));
    expect(e).toMatchObject({ code: 'DATASET_TOO_MANY_COLUMNS', path: 'file', details: { line: 1 } });
    expect(e!.message).toContain('200 (DATASET_MAX_COLUMNS)');
    // Decoding 14 MB is most of it; a parse of every column took seconds.
    expect(ms).toBeLessThan(2000);
  });

  it('a CSV of 9 M rows: DATASET_TOO_MANY_ROWS at line 10,002', async () => {
    const { e } = await refusal(() => read('rows.csv', csvWithRows(9_000_000)));
    expect(e).toMatchObject({ code: 'DATASET_TOO_MANY_ROWS', details: { line: 10_002 } });
    expect(e!.message).toContain('at most 10000 rows');
  });

  it('a JSONL row nested 5 M deep: JSON_TOO_DEEP, found by a scan that stops at level 257', async () => {
    const { e } = await refusal(() => read('deep.jsonl', jsonlNested(5_000_000)));
    expect(e).toMatchObject({ code: 'JSON_TOO_DEEP', path: 'file', details: { line: 1 } });
    expect(e!.message).toContain('more than 256 levels');
  });
});

describe('each limit has its code', () => {
  it('a cell, quoted or not, longer than maxCellChars: DATASET_CELL_TOO_LARGE with its line', async () => {
    const long = 'x'.repeat(101);
    for (const csv of [`a,b\n1,${long}\n`, `a,b\n1,"${long}"\n`, `a,b\n1,"line\n${long}"\n`]) {
      const { e } = await refusal(() => read('cells.csv', csv, { maxCellChars: 100 }));
      expect(e, csv).toMatchObject({ code: 'DATASET_CELL_TOO_LARGE' });
      expect(e!.message).toContain('DATASET_MAX_CELL_CHARS');
    }
    // Exactly at the limit, quotes and doubled quotes as written: accepted.
    await expect(read('ok.csv', `a\n"${'y'.repeat(100)}"\n`, { maxCellChars: 100 })).resolves.toMatchObject({
      rowCount: 1,
    });
    const { e } = await refusal(() => read('v.jsonl', `{"inputs":{"q":"${long}"}}\n`, { maxCellChars: 100 }));
    expect(e).toMatchObject({ code: 'DATASET_CELL_TOO_LARGE', details: { line: 1 } });
  });

  it('a JSONL row whose inputs have more fields than maxColumns: DATASET_TOO_MANY_COLUMNS', async () => {
    const inputs = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`k${i}`, i]));
    const { e } = await refusal(() =>
      read('wide.jsonl', `{"inputs":{}}\n${JSON.stringify({ inputs })}\n`, { maxColumns: 3 }),
    );
    expect(e).toMatchObject({ code: 'DATASET_TOO_MANY_COLUMNS', details: { line: 2 } });
  });

  it('rows whose JSON outgrows maxBytes: DATASET_TOO_LARGE at the row that passes it (UTF-8 bytes)', async () => {
    // Long column names repeated in every row make the JSON far larger than the CSV.
    const name = 'n'.repeat(150);
    const csv = `${Array.from({ length: 20 }, (_, i) => `${name}${i}`).join(',')}\n${'x\n'.repeat(1000)}`;
    const { e } = await refusal(() => read('amplified.csv', csv, { maxBytes: 100_000 }));
    expect(e).toMatchObject({ code: 'DATASET_TOO_LARGE', path: 'file' });
    expect(e!.message).toContain('100000 (DATASET_MAX_BYTES)');
    // Chinese characters count three bytes each.
    const zh = `{"inputs":{"q":"${'中'.repeat(400)}"}}\n`;
    await expect(read('zh.jsonl', zh, { maxBytes: 1100 })).rejects.toMatchObject({ code: 'DATASET_TOO_LARGE' });
    await expect(read('zh.jsonl', zh, { maxBytes: 1300 })).resolves.toMatchObject({ rowCount: 1 });
  });

  it('rows past maxRows in JSONL count only lines with a row', async () => {
    await expect(read('r.jsonl', '{"inputs":{}}\n\n\n{"inputs":{}}\n', { maxRows: 2 })).resolves.toMatchObject({
      rowCount: 2,
    });
    await expect(read('r.jsonl', '{"inputs":{}}\n'.repeat(3), { maxRows: 2 })).rejects.toMatchObject({
      code: 'DATASET_TOO_MANY_ROWS',
      details: { line: 3 },
    });
  });
});

describe('a file within the limits reads as before', () => {
  it('CSV: byte-order mark, Chinese, quoted commas and line breaks, expected.<field>, tags', async () => {
    const csv =
      '\uFEFFquestion,lang,expected,expected.intent,tags\r\n' +
      '"我的订单在哪里？\n还没到",zh,正在配送,tracking,"zh, orders"\r\n' +
      '"Cancel, please",en,Cancelled,billing,\r\n' +
      ',,,,\r\n';
    expect(await rowsOf('support.csv', csv)).toEqual([
      {
        inputs: { question: '我的订单在哪里？\n还没到', lang: 'zh' },
        expected: { value: '正在配送', intent: 'tracking' },
        tags: ['zh', 'orders'],
      },
      { inputs: { question: 'Cancel, please', lang: 'en' }, expected: { value: 'Cancelled', intent: 'billing' } },
    ]);
  });

  it('tab-separated files and JSONL with blank lines', async () => {
    expect(await rowsOf('t.tsv', 'q\tn\n一\t1\n')).toEqual([{ inputs: { q: '一', n: '1' } }]);
    const jsonl = '{"inputs":{"q":"一"},"expected":1}\n\n  \r\n{"inputs":{"q":"二"},"tags":["x"]}';
    expect(await rowsOf('rows.jsonl', jsonl)).toEqual([
      { inputs: { q: '一' }, expected: 1 },
      { inputs: { q: '二' }, tags: ['x'] },
    ]);
  });

  it('broken files name the line, as before', async () => {
    await expect(read('x.jsonl', '{"inputs":{}}\n{not json')).rejects.toMatchObject({
      code: 'DATASET_FILE_UNREADABLE',
      details: { line: 2 },
    });
    await expect(read('x.csv', 'question\n')).rejects.toMatchObject({ code: 'DATASET_FILE_UNREADABLE' });
    await expect(readDatasetFile('x.csv', new Uint8Array([0x61, 0x0a, 0xff, 0x0a]), LIMITS)).rejects.toMatchObject({
      code: 'DATASET_FILE_UNREADABLE',
      message: 'the file is not UTF-8 text',
    });
  });
});

describe("the shape pass counts a CSV's records the way the parser reads them", () => {
  it('quotes, doubled quotes, CR, CRLF and line breaks inside quotes', () => {
    const csv = 'a,b\r"x ""y"", z",2\r\n"multi\nline",3\n\n4,"5"';
    // Three rows after the header, at most two columns.
    expect(() => checkCsvShape(csv, ',', { maxRows: 3, maxColumns: 2, maxCellChars: 100 })).not.toThrow();
    expect(() => checkCsvShape(csv, ',', { maxRows: 2, maxColumns: 2, maxCellChars: 100 })).toThrow(
      expect.objectContaining({ code: 'DATASET_TOO_MANY_ROWS' }),
    );
    expect(() => checkCsvShape(csv, ',', { maxRows: 3, maxColumns: 1, maxCellChars: 100 })).toThrow(
      expect.objectContaining({ code: 'DATASET_TOO_MANY_COLUMNS' }),
    );
  });
});
