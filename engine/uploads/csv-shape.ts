/**
 * The shape of a CSV text checked in one pass before it is parsed, stopping at the first record, column or cell past
 * its limit: a header of 1.5 M columns is refused at column 201, a file of 9 M rows at row 10,001 — not after a parser
 * has built every field. The pass reads records the way csv-parse does with its defaults (`"` quotes a field, `""` is
 * a quote inside one, a record ends at LF, CRLF or CR outside quotes, empty lines are skipped), so its counts are the
 * parser's for any CSV the parser accepts; for one it refuses, csv-parse names the problem afterwards.
 */
import { cellTooLarge, tooManyColumns, tooManyRows } from './upload-errors';

export interface CsvShapeLimits {
  /** Records after the header. */
  maxRows: number;
  /** Fields of one record. */
  maxColumns: number;
  /** Characters of one field (a quoted field's quotes not counted). */
  maxCellChars: number;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Throws the limit's error (with the line) at the first record, field or cell of `text` past `limits`. */
export function checkCsvShape(text: string, delimiter: string, limits: CsvShapeLimits): void {
  const delim = delimiter.charCodeAt(0);
  let line = 1;
  let records = 0;
  // The current record: where its current field starts, how many fields it has so far, whether it has any character.
  let fieldStart = 0;
  let fields = 1;
  let empty = true;
  // The surrounding quotes of a quoted field, which are not its characters.
  let quotes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE && i === fieldStart) {
      // A quoted field: to its closing quote (a doubled quote stays inside), line breaks included.
      empty = false;
      quotes = 2;
      for (i++; i < n; i++) {
        const q = text.charCodeAt(i);
        if (q === QUOTE) {
          if (text.charCodeAt(i + 1) !== QUOTE) break;
          i++;
        } else if (q === LF || (q === CR && text.charCodeAt(i + 1) !== LF)) line++;
        if (i - fieldStart - 1 > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
      }
      continue;
    }
    if (c === delim) {
      if (i - fieldStart - quotes > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
      if (++fields > limits.maxColumns) throw tooManyColumns(limits.maxColumns, line);
      fieldStart = i + 1;
      quotes = 0;
      empty = false;
    } else if (c === LF || c === CR) {
      if (i - fieldStart - quotes > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
      // The header is record 1: the rows come after it.
      if (!empty && ++records > limits.maxRows + 1) throw tooManyRows(limits.maxRows, line);
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      line++;
      fieldStart = i + 1;
      fields = 1;
      quotes = 0;
      empty = true;
    } else {
      empty = false;
      if (i - fieldStart - quotes >= limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
    }
  }
  if (n - fieldStart - quotes > limits.maxCellChars) throw cellTooLarge(limits.maxCellChars, line);
  if (!empty && ++records > limits.maxRows + 1) throw tooManyRows(limits.maxRows, line);
}
