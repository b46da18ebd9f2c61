/**
 * A multipart/form-data body split into its fields and files in a worker thread of the CPU pools
 * (parse-in-worker.ts): undici's parser works through the whole body in one go, which on the main thread held up
 * every other request for hundreds of milliseconds per large upload. Files come
 * back as bytes: copying them to the main thread is a memory copy, not a parse.
 */
import { PaiError } from '../errors';

export interface FormLimits {
  /** Fields and files together. */
  maxParts: number;
}

export interface FormFile {
  field: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface ParsedForm {
  /** Text fields in order: [name, value]. */
  fields: Array<[string, string]>;
  files: FormFile[];
}

export async function readMultipartForm(
  body: Uint8Array,
  contentType: string,
  limits: FormLimits,
): Promise<ParsedForm> {
  let form: FormData;
  try {
    form = await new Response(body as BodyInit, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new PaiError('INVALID_MULTIPART', 'the multipart body could not be parsed');
  }
  const out: ParsedForm = { fields: [], files: [] };
  let parts = 0;
  for (const [field, value] of form.entries()) {
    if (++parts > limits.maxParts)
      throw new PaiError('TOO_MANY_FORM_PARTS', `the form has more than ${limits.maxParts} fields and files`);
    if (typeof value === 'string') out.fields.push([field, value]);
    else
      out.files.push({ field, name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return out;
}
