/**
 * A dataset's rows from an uploaded file, read in a worker thread of the CPU pools (parse-in-worker.ts) under the
 * dataset limits, each checked as the file is read so that an input past one stops there:
 * - CSV: the header names the columns; `expected` is the expectation, `expected.<field>` columns make it an object of
 *   those fields, `tags` is a comma-separated list, every other column is an input. Rows, columns and cell sizes are
 *   checked in one pass before parsing (csv-shape.ts), then rows are made one record at a time.
 * - JSONL: one row object per line (`{ inputs, expected?, tags? }`); a line's nesting is checked by a scan that stops
 *   at the limit before it is parsed, its size and its values' sizes and its shape before it is kept.
 * Either way the rows' JSON is counted as it grows (DATASET_MAX_BYTES). Chinese text and a UTF-8 byte-order mark are
 * fine; a file that is neither is DATASET_FILE_UNREADABLE naming the line. The answer is the rows as one JSON text,
 * which the store writes as it is: the main thread never parses or serialises the rows of an upload.
 */
import { datasetRowSchema } from './dataset-row-schema';
import { checkCsvShape } from './csv-shape';
import { jsonDepth } from './json-depth';
import {
  cellTooLarge,
  datasetTooLarge,
  datasetUnreadable,
  jsonTooDeep,
  rowInvalid,
  tooManyColumns,
  tooManyRows,
} from './upload-errors';

export type DatasetFileFormat = 'csv' | 'jsonl';

export interface DatasetFileLimits {
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
  /** Bytes of the rows as JSON. */
  maxBytes: number;
  maxDepth: number;
}

export interface DatasetFileRows {
  format: DatasetFileFormat;
  /** The rows as a JSON array, each of the dataset row shape. */
  rowsJson: string;
  rowCount: number;
}

/** By the file name's extension, else by the content: a first line that is a JSON object means JSONL. */
export function formatOf(filename: string, text: string): DatasetFileFormat {
  if (/\.jsonl?$/i.test(filename) || /\.ndjson$/i.test(filename)) return 'jsonl';
  if (/\.(csv|tsv)$/i.test(filename)) return 'csv';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

export async function readDatasetFile(
  filename: string,
  bytes: Uint8Array,
  limits: DatasetFileLimits,
): Promise<DatasetFileRows> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw datasetUnreadable('the file is not UTF-8 text');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = formatOf(filename, text);
  const rows = new RowsJson(limits.maxBytes);
  if (format === 'jsonl') readJsonl(text, limits, rows);
  else await readCsv(text, limits, rows);
  if (!rows.count) throw datasetUnreadable('the file has no rows');
  return { format, rowsJson: rows.text(), rowCount: rows.count };
}

/** The rows' JSON, refused as soon as it grows past `maxBytes` (UTF-8, as it is sent and stored). */
class RowsJson {
  private parts: string[] = [];
  private bytes = 2;
  count = 0;
  constructor(private readonly maxBytes: number) {}

  add(json: string, line?: number) {
    this.bytes += Buffer.byteLength(json) + 1;
    if (this.bytes > this.maxBytes) throw datasetTooLarge(this.maxBytes, line);
    this.parts.push(json);
    this.count++;
  }

  text() {
    return `[${this.parts.join(',')}]`;
  }
}

/** Whether text[start, end) is only white space (a blank line between rows). */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && (c < 128 || !/\s/.test(text[i]))) return false;
  }
  return true;
}

function readJsonl(text: string, limits: DatasetFileLimits, rows: RowsJson) {
  let line = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const next = end + 1;
    if (isBlank(text, start, lineEnd)) {
      start = next;
      continue;
    }
    if (rows.count >= limits.maxRows) throw tooManyRows(limits.maxRows, line);
    if (jsonDepth(text, limits.maxDepth, start, lineEnd) > limits.maxDepth)
      throw jsonTooDeep(limits.maxDepth, { line });
    if (lineEnd - start > limits.maxBytes) throw datasetTooLarge(limits.maxBytes, line);
    const source = text.slice(start, lineEnd);
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (e) {
      throw datasetUnreadable(`not JSON: ${(e as Error).message}`, line);
    }
    checkRowValues(value, limits, line);
    const row = datasetRowSchema.safeParse(value);
    if (!row.success) throw rowInvalid(rows.count, line, source);
    rows.add(JSON.stringify(row.data), line);
    start = next;
  }
}

/** A JSONL row's inputs have at most maxColumns fields, and no string in it is longer than maxCellChars. */
function checkRowValues(row: unknown, limits: DatasetFileLimits, line: number) {
  const inputs = row && typeof row === 'object' ? (row as { inputs?: unknown }).inputs : undefined;
  if (inputs && typeof inputs === 'object' && Object.keys(inputs).length > limits.maxColumns)
    throw tooManyColumns(limits.maxColumns, line);
  // Iterative: the depth is already bounded, but a wide value must not cost a frame per element either.
  const stack: unknown[] = [row];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.length > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k.length > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
        stack.push(child);
      }
    }
  }
}

/** The delimiter: tab when the first line has tabs and no comma, else comma. */
function delimiterOf(text: string): string {
  let end = text.indexOf('\n');
  if (end < 0) end = text.length;
  const first = text.slice(0, end);
  return first.includes('\t') && !first.includes(',') ? '\t' : ',';
}

async function readCsv(text: string, limits: DatasetFileLimits, rows: RowsJson) {
  const delimiter = delimiterOf(text);
  checkCsvShape(text, delimiter, limits);
  const { parse, CsvError } = await import('csv-parse/sync');
  let header: string[] | null = null;
  try {
    parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      // Rows are made as records are read and kept as JSON: no array of every record.
      on_record: (record: string[], { lines }: { lines: number }) => {
        if (!header) header = headerOf(record);
        else {
          const row = rowOf(header, record);
          if (row) rows.add(JSON.stringify(row), lines);
        }
        return null;
      },
    });
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    throw datasetUnreadable(`not CSV: ${e.message}`, (e as { lines?: number }).lines);
  }
}

function headerOf(record: string[]): string[] {
  const header = record.map((h) => h.trim());
  const blank = header.findIndex((h) => !h);
  if (blank >= 0) throw datasetUnreadable(`column ${blank + 1} has no name in the header`, 1);
  const seen = new Set<string>();
  for (const h of header) {
    if (seen.has(h)) throw datasetUnreadable(`the header names "${h}" twice`, 1);
    seen.add(h);
  }
  return header;
}

interface CsvRow {
  inputs: Record<string, unknown>;
  expected?: unknown;
  tags?: string[];
}

function rowOf(header: string[], record: string[]): CsvRow | null {
  const inputs: Record<string, unknown> = {};
  let expected: unknown;
  const fields: Record<string, string> = {};
  let tags: string[] | undefined;
  header.forEach((column, i) => {
    const value = record[i] ?? '';
    if (column === 'expected') expected = value;
    else if (column.startsWith('expected.')) fields[column.slice('expected.'.length)] = value;
    else if (column === 'tags')
      tags = value
        .split(/[,，]/)
        .map((t) => t.trim())
        .filter(Boolean);
    else inputs[column] = value;
  });
  if (Object.keys(fields).length)
    expected = { ...(typeof expected === 'string' ? { value: expected } : {}), ...fields };
  if (record.every((v) => !v.trim())) return null;
  return {
    inputs,
    ...(expected !== undefined && expected !== '' ? { expected } : {}),
    ...(tags?.length ? { tags } : {}),
  };
}
