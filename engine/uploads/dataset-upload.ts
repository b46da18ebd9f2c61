/**
 * A dataset upload (multipart: a CSV or JSONL `file`, and optionally `name` and `description`) read whole in a worker
 * thread of the CPU pools: the form, then the file's rows under the dataset limits (dataset-file.ts). The main thread
 * gets the text fields, the file's name and the rows as one JSON text.
 */
import { PaiError } from '../errors';
import { readDatasetFile, type DatasetFileLimits, type DatasetFileRows } from './dataset-file';
import { readMultipartForm } from './multipart-form';

export interface DatasetUpload {
  fields: Record<string, string>;
  filename: string;
  rows: DatasetFileRows;
}

const FIELDS = ['name', 'description'];
/** Parts of the form: the file, its fields, and room for unknown ones to be named in the error. */
const MAX_PARTS = 16;

export async function readDatasetUpload(
  body: Uint8Array,
  contentType: string,
  limits: DatasetFileLimits,
): Promise<DatasetUpload> {
  const form = await readMultipartForm(body, contentType, { maxParts: MAX_PARTS });
  const fields: Record<string, string> = {};
  for (const [key, value] of form.fields) {
    if (key === 'file') continue;
    if (!FIELDS.includes(key))
      throw new PaiError('UNKNOWN_KEY', `unknown form field "${key}"; send "file", "name" and "description"`, {
        path: key,
      });
    fields[key] = value;
  }
  const unknownFile = form.files.find((f) => f.field !== 'file');
  if (unknownFile)
    throw new PaiError(
      'UNKNOWN_KEY',
      `unknown form field "${unknownFile.field}"; send "file", "name" and "description"`,
      {
        path: unknownFile.field,
      },
    );
  if (form.files.length !== 1 || form.fields.some(([key]) => key === 'file'))
    throw new PaiError('VALIDATION_ERROR', 'one "file" field with a CSV or JSONL file is required', { path: 'file' });
  const [file] = form.files;
  return { fields, filename: file.name, rows: await readDatasetFile(file.name, file.bytes, limits) };
}
