/**
 * The `json_schema` scorer: an End output (a string is parsed as JSON, anything else taken as it is) validated
 * against a JSON Schema with Ajv. A schema is checked when the scorer spec is parsed — an invalid one is refused
 * there, saying why — and compiled once: validators are cached by the schema object and by its JSON text.
 *
 * The schema is the evaluation author's, so it is bounded before Ajv sees it: its JSON text and nesting depth are
 * limited (a deep schema would overflow the compiler's stack), and `pattern` / `patternProperties` run on RE2 with
 * the project's pattern limits (engine/nodes/shared/regex.ts), never on backtracking JavaScript regular expressions.
 * Drafts: 2020-12 and 2019-09 when `$schema` names them, else draft-07. Unknown keywords and formats are ignored.
 */
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { compileRegex } from '../nodes/shared/regex';
import type { Score } from './scorers';

export const MAX_SCHEMA_CHARS = 100_000;
export const MAX_SCHEMA_DEPTH = 32;

const re2: RegExpEngine = Object.assign(
  (pattern: string) => {
    const re = compileRegex(pattern);
    return { test: (s: string) => re.matcher(s).find() };
  },
  { code: 're2' },
);

const options: Options = { strict: false, allErrors: false, logger: false, code: { regExp: re2 } };
let engines: { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;

function engineFor(schema: Record<string, unknown>): Ajv {
  engines ??= { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) };
  const draft = schema.$schema;
  if (draft === undefined) return engines.draft7;
  if (typeof draft !== 'string') throw new Error('"$schema" must be a string');
  if (draft.includes('2020-12')) return engines.draft2020;
  if (draft.includes('2019-09')) return engines.draft2019;
  if (draft.includes('draft-07')) return engines.draft7;
  throw new Error(`"$schema" ${JSON.stringify(draft)} is not supported: use draft-07, 2019-09 or 2020-12`);
}

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== 'object') return depth;
  let max = depth;
  for (const v of Object.values(value)) {
    max = Math.max(max, depthOf(v, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

const byObject = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

/** The schema's validator, compiled once; throws an Error saying why the schema is not a valid JSON Schema. */
export function compileJsonSchema(schema: Record<string, unknown>): ValidateFunction {
  const known = byObject.get(schema);
  if (known) return known;
  const text = JSON.stringify(schema);
  let validate = byText.get(text);
  if (!validate) {
    if (text.length > MAX_SCHEMA_CHARS)
      throw new Error(`the schema has ${text.length} characters of JSON; the limit is ${MAX_SCHEMA_CHARS}`);
    if (depthOf(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH)
      throw new Error(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const ajv = engineFor(schema);
    // A private copy: Ajv keeps the compiled schema by object (and by `$id`), which is removed right after, so
    // the engine holds nothing between schemas and two schemas may share an `$id`.
    const own = JSON.parse(text) as Record<string, unknown>;
    try {
      validate = ajv.compile(own);
    } finally {
      ajv.removeSchema(own);
    }
    if (byText.size >= 500) byText.clear();
    byText.set(text, validate);
  }
  byObject.set(schema, validate);
  return validate;
}

/** Why `schema` is not a usable JSON Schema, or null when it is (for the scorer spec's validation). */
export function jsonSchemaProblem(schema: Record<string, unknown>): string | null {
  try {
    compileJsonSchema(schema);
    return null;
  } catch (e) {
    return `invalid JSON Schema: ${(e as Error).message}`;
  }
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the root' : error.instancePath;
  return `at ${where}: ${error.message ?? error.keyword}`;
}

/** Scores `output` (a JSON string, or a value) against `schema`: 1 when valid, else 0 with the first error. */
export function scoreJsonSchema(schema: Record<string, unknown>, output: unknown): Score {
  if (output === undefined || output === null) return { score: 0, passed: false, reason: 'the run has no output' };
  let value = output;
  if (typeof output === 'string') {
    // A model often fences its JSON in a Markdown code block.
    const text = output
      .trim()
      .replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/i, '$1')
      .trim();
    try {
      value = JSON.parse(text);
    } catch {
      return { score: 0, passed: false, reason: `the output is not JSON: "${clip(text)}"` };
    }
  }
  const validate = compileJsonSchema(schema);
  if (validate(value)) return { score: 1, passed: true };
  const first = validate.errors?.[0];
  return { score: 0, passed: false, reason: first ? describeError(first) : 'the output does not match the schema' };
}
