/**
 * The errors of a user's document over a limit, one code each, with a message that names the limit (and the setting
 * that raises it) and where in the document it was passed. They are thrown in a worker thread of the CPU pools
 * (engine/cpu/worker.mjs) and rethrown on the main thread with their code, message, path and details.
 */
import { PaiError } from '../errors';

/** Where a dataset file's problem is: the request's `file` field, and the line when known. */
function inFile(line?: number) {
  return { path: 'file', ...(line ? { details: { line } } : {}) };
}

const atLine = (line?: number) => (line ? `line ${line}: ` : '');

export function datasetUnreadable(message: string, line?: number): PaiError {
  return new PaiError('DATASET_FILE_UNREADABLE', `${atLine(line)}${message}`, inFile(line));
}

export function tooManyRows(limit: number, line: number): PaiError {
  return new PaiError(
    'DATASET_TOO_MANY_ROWS',
    `${atLine(line)}the file has more than ${limit} rows; a dataset has at most ${limit} rows: split it`,
    inFile(line),
  );
}

export function tooManyColumns(limit: number, line: number): PaiError {
  return new PaiError(
    'DATASET_TOO_MANY_COLUMNS',
    `${atLine(line)}a row has more than ${limit} columns; the limit is ${limit} (DATASET_MAX_COLUMNS)`,
    inFile(line),
  );
}

export function cellTooLarge(limit: number, line: number): PaiError {
  return new PaiError(
    'DATASET_CELL_TOO_LARGE',
    `${atLine(line)}a value is longer than ${limit} characters; the limit is ${limit} (DATASET_MAX_CELL_CHARS)`,
    inFile(line),
  );
}

export function datasetTooLarge(limit: number, line?: number): PaiError {
  return new PaiError(
    'DATASET_TOO_LARGE',
    `${atLine(line)}the rows come to more than ${limit} bytes of JSON; the limit of a dataset is ${limit} ` +
      '(DATASET_MAX_BYTES): split it',
    inFile(line),
  );
}

/**
 * A JSONL row that is not of the row shape. The main thread checks that row again with the same schema, so that the
 * answer names the problem at its path (`rows[3].inputs`) in the request's language; `details.source` is the line.
 */
export function rowInvalid(index: number, line: number, source: string): PaiError {
  return new PaiError('DATASET_ROW_INVALID', `line ${line}: row ${index} is not a dataset row`, {
    path: `rows[${index}]`,
    details: { line, index, source },
  });
}

export function jsonTooDeep(limit: number, where: { line?: number; path?: string }): PaiError {
  return new PaiError('JSON_TOO_DEEP', `${atLine(where.line)}the JSON nests more than ${limit} levels deep`, {
    path: where.path ?? 'file',
    ...(where.line ? { details: { line: where.line } } : {}),
  });
}

export function yamlTooDeep(limit: number, where: { line?: number; path: string }): PaiError {
  return new PaiError('YAML_TOO_DEEP', `${atLine(where.line)}the YAML nests more than ${limit} levels deep`, {
    path: where.path,
    ...(where.line ? { details: { line: where.line } } : {}),
  });
}

/** `setting`: the variable that raises the limit, if one does. */
export function yamlTooManyNodes(limit: number, where: { line: number; path: string; setting?: string }): PaiError {
  return new PaiError(
    'YAML_TOO_MANY_NODES',
    `${atLine(where.line)}the YAML holds more than ${limit} values (scalars and collections); the limit is ${limit}` +
      (where.setting ? ` (${where.setting})` : ''),
    { path: where.path, details: { line: where.line } },
  );
}
