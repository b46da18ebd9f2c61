/**
 * The `json_schema` scorer: an End output (a string is parsed as JSON, anything else taken as it is) validated
 * against a JSON Schema by @cfworker/json-schema — an interpreter: the schema is walked as data, never turned into
 * code, so an evaluation author's schema cannot become a function (no `new Function`, unlike compiling validators).
 *
 * The schema is the evaluation author's, so it is checked when the scorer spec is parsed: its JSON text and nesting
 * depth are bounded, the keywords a validator reads must have the right shape (a misspelt `"type": "strin"` is
 * refused, saying where), and every `pattern` and `patternProperties` key must compile in RE2 with the project's
 * pattern limits — so no lookahead or back-reference, the constructs that backtrack without end. Validation runs in
 * the CPU pool's quick threads under REGEX_TIMEOUT_MS, so even a pattern that is slow in JavaScript's engine stops in
 * time and never blocks the server. Drafts: 2020-12 and 2019-09 when `$schema` names them, else draft-07.
 */
import { checkRegexForSave } from '../nodes/shared/regex';
import { cpuLimits } from '../cpu/limits';
import { runInPool } from '../cpu/pool';
import { PaiError } from '../errors';
import type { Score } from './score';

export const MAX_SCHEMA_CHARS = 100_000;
export const MAX_SCHEMA_DEPTH = 32;

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);
/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNT_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

/** The draft @cfworker/json-schema validates with, from `$schema`; throws for one it does not support. */
export function draftOf(schema: unknown): '7' | '2019-09' | '2020-12' {
  const named = schema && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined;
  if (named === undefined) return '7';
  if (typeof named !== 'string') throw new Error('"$schema" must be a string');
  if (named.includes('2020-12')) return '2020-12';
  if (named.includes('2019-09')) return '2019-09';
  if (named.includes('draft-07')) return '7';
  throw new Error(`"$schema" ${JSON.stringify(named)} is not supported: use draft-07, 2019-09 or 2020-12`);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A schema's pattern is ECMA-262 (JSON Schema's dialect, which the validator runs) and must also be one RE2 accepts:
 * that leaves out the constructs that backtrack without end. Compiling a pattern runs nothing.
 */
function checkPattern(pattern: string, where: string) {
  try {
    checkRegexForSave(pattern);
    new RegExp(pattern, 'u');
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}`);
  }
}

/** Throws an Error naming the first keyword (by its JSON pointer) whose value a validator cannot use. */
function checkSchema(schema: unknown, where: string, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH) throw new Error(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) throw new Error(`${where || '/'}: a schema is an object or a boolean`);
  const at = (k: string) => `${where}/${k}`;
  const type = schema.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    for (const t of list)
      if (typeof t !== 'string' || !TYPES.has(t))
        throw new Error(`${at('type')}: ${JSON.stringify(t)} is not a type (${[...TYPES].join(', ')})`);
  }
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))
  )
    throw new Error(`${at('required')}: must be a list of property names`);
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) throw new Error(`${at('enum')}: must be a list`);
  for (const k of NUMBER_KEYWORDS)
    if (schema[k] !== undefined && typeof schema[k] !== 'number' && typeof schema[k] !== 'boolean')
      throw new Error(`${at(k)}: must be a number`);
  for (const k of COUNT_KEYWORDS)
    if (schema[k] !== undefined && !(Number.isInteger(schema[k]) && (schema[k] as number) >= 0))
      throw new Error(`${at(k)}: must be a whole number ≥ 0`);
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string') throw new Error(`${at('pattern')}: must be a string`);
    checkPattern(schema.pattern, at('pattern'));
  }
  for (const k of SCHEMA_KEYWORDS) if (schema[k] !== undefined) checkSchema(schema[k], at(k), depth + 1);
  for (const k of SCHEMA_MAP_KEYWORDS) {
    const map = schema[k];
    if (map === undefined) continue;
    if (!isObject(map)) throw new Error(`${at(k)}: must be an object of schemas`);
    for (const [name, sub] of Object.entries(map)) {
      if (k === 'patternProperties') checkPattern(name, `${at(k)}/${name}`);
      checkSchema(sub, `${at(k)}/${name}`, depth + 1);
    }
  }
  for (const k of SCHEMA_LIST_KEYWORDS) {
    const list = schema[k];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.length) throw new Error(`${at(k)}: must be a non-empty list of schemas`);
    list.forEach((sub, i) => checkSchema(sub, `${at(k)}/${i}`, depth + 1));
  }
  const items = schema.items;
  if (Array.isArray(items)) items.forEach((sub, i) => checkSchema(sub, `${at('items')}/${i}`, depth + 1));
  else if (items !== undefined) checkSchema(items, at('items'), depth + 1);
}

/** Why `schema` is not a usable JSON Schema, or null when it is (for the scorer spec's validation). */
export function jsonSchemaProblem(schema: Record<string, unknown>): string | null {
  try {
    const text = JSON.stringify(schema);
    if (text.length > MAX_SCHEMA_CHARS)
      throw new Error(`the schema has ${text.length} characters of JSON; the limit is ${MAX_SCHEMA_CHARS}`);
    draftOf(schema);
    checkSchema(schema, '', 0);
    return null;
  } catch (e) {
    return `invalid JSON Schema: ${(e as Error).message}`;
  }
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

/** The output as a JSON value: a string is parsed (unfenced from a Markdown code block first). */
function parseOutput(output: unknown): { value: unknown } | { reason: string } {
  if (typeof output !== 'string') return { value: output };
  const text = output
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/i, '$1')
    .trim();
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { reason: `the output is not JSON: "${clip(text)}"` };
  }
}

/** What the worker answers: valid, or the deepest error's place and message. */
export interface SchemaVerdict {
  valid: boolean;
  at?: string;
  message?: string;
}

/** Scores `output` (a JSON string, or a value) against `schema`: 1 when valid, else 0 with the first error. */
export async function scoreJsonSchema(
  schema: Record<string, unknown>,
  output: unknown,
  opts: { signal?: AbortSignal } = {},
): Promise<Score> {
  if (output === undefined || output === null) return { score: 0, passed: false, reason: 'the run has no output' };
  const parsed = parseOutput(output);
  if ('reason' in parsed) return { score: 0, passed: false, reason: parsed.reason };
  const timeoutMs = cpuLimits().regexTimeoutMs;
  const verdict = await runInPool<SchemaVerdict>(
    'quick',
    'jsonSchema',
    { schema, draft: draftOf(schema), instance: parsed.value },
    {
      timeoutMs,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError('REGEX_TIMEOUT', `validating the output took longer than ${timeoutMs} ms (REGEX_TIMEOUT_MS)`),
    },
  );
  if (verdict.valid) return { score: 1, passed: true };
  const where = !verdict.at || verdict.at === '/' ? 'the root' : verdict.at;
  return { score: 0, passed: false, reason: `at ${where}: ${verdict.message ?? 'does not match the schema'}` };
}
