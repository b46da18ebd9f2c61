/**
 * A dataset's rows from an uploaded file. CSV: the header names the columns; `expected` is the expectation,
 * `expected.<field>` columns make it an object of those fields, `tags` is a comma-separated list, every other column is
 * an input. JSONL: one row object per line (`{ inputs, expected?, tags? }`). Chinese text and a UTF-8 byte-order mark
 * are fine; a file that is neither is a 400 DATASET_FILE_UNREADABLE naming the line.
 */
import { PaiError } from '@/engine/errors';
import type { DatasetRow } from '@/engine/store/datasets';
import { parseInput } from '@/lib/http/body';
import { datasetRowSchema, MAX_DATASET_ROWS } from './dataset-schemas';

export type DatasetFileFormat = 'csv' | 'jsonl';

function unreadable(message: string, line?: number): PaiError {
  return new PaiError('DATASET_FILE_UNREADABLE', line ? `line ${line}: ${message}` : message, {
    path: 'file',
    ...(line ? { details: { line } } : {}),
  });
}

function tooMany(): PaiError {
  return new PaiError('VALIDATION_ERROR', `a dataset has at most ${MAX_DATASET_ROWS} rows`, { path: 'file' });
}

/** By the file name's extension, else by the content: a first line that is a JSON object means JSONL. */
export function formatOf(filename: string, text: string): DatasetFileFormat {
  if (/\.jsonl?$/i.test(filename) || /\.ndjson$/i.test(filename)) return 'jsonl';
  if (/\.(csv|tsv)$/i.test(filename)) return 'csv';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

export async function rowsFromFile(filename: string, bytes: Uint8Array): Promise<DatasetRow[]> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unreadable('the file is not UTF-8 text');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const rows = formatOf(filename, text) === 'jsonl' ? rowsFromJsonl(text) : await rowsFromCsv(text);
  if (!rows.length) throw unreadable('the file has no rows');
  return rows;
}

export function rowsFromJsonl(text: string): DatasetRow[] {
  const rows: DatasetRow[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch (e) {
      throw unreadable(`not JSON: ${(e as Error).message}`, i + 1);
    }
    rows.push(parseInput(datasetRowSchema, value, `rows[${rows.length}]`) as DatasetRow);
    if (rows.length > MAX_DATASET_ROWS) throw tooMany();
  }
  return rows;
}

function rowOf(header: string[], record: string[]): DatasetRow | null {
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

export async function rowsFromCsv(text: string): Promise<DatasetRow[]> {
  const { parse, CsvError } = await import('csv-parse/sync');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch (e) {
    const line = e instanceof CsvError ? (e as { lines?: number }).lines : undefined;
    throw unreadable(`not CSV: ${(e as Error).message}`, line);
  }
  const [head, ...body] = records;
  if (!head) return [];
  const header = head.map((h) => h.trim());
  const blank = header.findIndex((h) => !h);
  if (blank >= 0) throw unreadable(`column ${blank + 1} has no name in the header`, 1);
  const duplicate = header.find((h, i) => header.indexOf(h) !== i);
  if (duplicate) throw unreadable(`the header names "${duplicate}" twice`, 1);
  if (body.length > MAX_DATASET_ROWS) throw tooMany();
  return body.map((r) => rowOf(header, r)).filter((r): r is DatasetRow => r !== null);
}
