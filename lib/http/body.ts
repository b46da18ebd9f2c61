import type { z } from 'zod';
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { readTextLimited } from '@/engine/net/read-limited';
import { jsonDepth, MAX_VALUE_DEPTH } from '@/engine/uploads/json-depth';
import { invalidInputError } from './errors';
import { refuseNulInBody } from './refused-input';

/** Reads a JSON body with a size limit (413), a content-type check (415) and zod validation (400 with a path). */
export async function readJson<T>(
  req: Request,
  schema: z.ZodType<T>,
  opts: { limit?: number; optional?: boolean } = {},
): Promise<T> {
  const limit = opts.limit ?? settings().MAX_BODY_BYTES;
  const type = req.headers.get('content-type') ?? '';
  const text = await readTextLimited(req, limit, { code: 'PAYLOAD_TOO_LARGE', what: 'body' });
  if (!text.trim()) {
    if (opts.optional) return schema.parse({});
    throw new PaiError('BODY_REQUIRED', 'a JSON body is required');
  }
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new PaiError('UNSUPPORTED_MEDIA_TYPE', `expected application/json, got ${type.split(';')[0]}`);
  }
  // Deeper bodies are refused before they are parsed: validation, templating and the stores walk values recursively.
  if (jsonDepth(text, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH) {
    throw new PaiError(
      'JSON_TOO_DEEP',
      `the body nests more than ${MAX_VALUE_DEPTH} levels deep; the limit is ${MAX_VALUE_DEPTH}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new PaiError('INVALID_JSON', `the body is not valid JSON: ${(e as Error).message}`);
  }
  refuseNulInBody(text, data);
  return parseInput(schema, data);
}

/**
 * `data` parsed with `schema`, or a 400 naming every problem: UNKNOWN_KEY for a key the (strict) schema does not
 * know, with `details.suggestion` when a known key is close; VALIDATION_ERROR for the rest. `base` prefixes the paths
 * (the part of the body `data` came from).
 */
export function parseInput<T>(schema: z.ZodType<T>, data: unknown, base?: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw invalidInputError(r.error.issues, { schema, input: data, base });
}
