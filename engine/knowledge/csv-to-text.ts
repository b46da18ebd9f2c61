/**
 * .csv → text for search: the first row names the columns and every later row becomes one line
 * "col: value; col: value" (empty cells left out, line breaks inside a cell made spaces), so a chunk of rows reads
 * on its own and a row's values stay beside their column names. `records` are the lines' ranges, which
 * prepare-document.ts packs into chunks without cutting a row that fits in one (chunker.ts packRecords).
 * UTF-8 only (a byte-order mark is dropped): a CSV in another encoding fails with DOCUMENT_PARSE_FAILED saying so,
 * rather than being indexed as mojibake. The delimiter is the one of `,` `;` tab that the header row uses most.
 */
import { PaiError } from '../errors';
import type { TextSegment } from './chunker';

function failed(reason: string): PaiError {
  return new PaiError('DOCUMENT_PARSE_FAILED', `the CSV could not be read: ${reason}`);
}

function decodeStrictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw failed('it is not UTF-8 text; save it as "CSV UTF-8" and upload it again');
  }
}

/** The delimiter the first line (outside quotes) uses most, of comma, semicolon and tab. */
export function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c in counts) counts[c]++;
  }
  return Object.entries(counts).reduce((best, cur) => (cur[1] > best[1] ? cur : best), [',', 0])[0];
}

const clean = (cell: string) => cell.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();

/** `tooLarge`: the error for text past `maxChars` (thrown as soon as the text passes it). */
export async function csvToText(
  bytes: Uint8Array | string,
  maxChars: number,
  tooLarge: (chars: number) => PaiError,
): Promise<{ text: string; records: TextSegment[] }> {
  let source = typeof bytes === 'string' ? bytes : decodeStrictUtf8(bytes);
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const { parse, CsvError } = await import('csv-parse/sync');
  let header: string[] | null = null;
  let text = '';
  const records: TextSegment[] = [];
  try {
    parse(source, {
      delimiter: detectDelimiter(source),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // Rows are turned into lines as they are read and not kept: memory stays at the text, not at a row array.
      on_record: (record: string[]) => {
        if (!header) {
          header = record.map((h, i) => clean(h) || `column ${i + 1}`);
          return null;
        }
        const cols = header;
        const line = record
          .map((v, i) => [cols[i] ?? `column ${i + 1}`, clean(v)] as const)
          .filter(([, v]) => v)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ');
        if (!line) return null;
        if (text) text += '\n';
        records.push({ start: text.length, end: text.length + line.length, page: null });
        text += line;
        if (text.length > maxChars) throw tooLarge(text.length);
        return null;
      },
    });
  } catch (e) {
    if (e instanceof PaiError) throw e;
    throw failed(e instanceof CsvError ? e.message : String((e as Error)?.message ?? e));
  }
  return { text, records };
}
