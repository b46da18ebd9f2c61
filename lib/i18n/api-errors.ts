/**
 * API error messages in the request's language. `code` never changes; `message` does:
 *   - English: the error's own specific message, exactly as the server wrote it (tests and clients read it);
 *   - Chinese: the Chinese explanation of the code (messages/zh-CN/errors.json). The specific English message stays
 *     in a `detail` field when it names something the explanation cannot (an id, a name, a limit, an upstream reason).
 * VALIDATION_ERROR issues whose message is zod's default English one are answered with zod's own Simplified Chinese
 * locale; custom messages get the Chinese explanation plus the path. The per-issue `errors[]` list is localized the
 * same way. A code without a translation keeps its English message.
 */
import { z } from 'zod';
import type { PaiError } from '@/engine/errors';
import enErrors from '@/messages/en/errors.json';
import zhErrors from '@/messages/zh-CN/errors.json';
import type { Locale } from './locales';

type ZodIssue = z.core.$ZodIssue;

/** One entry of an error's `errors[]` list (a zod issue, a graph problem …). */
export interface ApiErrorItem {
  code?: string;
  message: string;
  path?: string;
  detail?: string;
  [field: string]: unknown;
}

/** The `error` object of an API error answer. */
export interface ApiErrorBody {
  code: string;
  message: string;
  detail?: string;
  path?: string;
  errors?: unknown;
  [field: string]: unknown;
}

const EXPLANATIONS: Record<Locale, Record<string, string>> = { en: enErrors, 'zh-CN': zhErrors };

/** The plain explanation of an error code in a language, or undefined when the code has none. */
export function errorExplanation(code: string, locale: Locale): string | undefined {
  const text = EXPLANATIONS[locale][code];
  return typeof text === 'string' ? text : undefined;
}

const zodIssues = new WeakMap<PaiError, readonly ZodIssue[]>();

/** Remembers the zod issues a VALIDATION_ERROR was made from, so its Chinese answer can use zod's own locale. */
export function rememberZodIssues(err: PaiError, issues: readonly ZodIssue[]): PaiError {
  zodIssues.set(err, issues);
  return err;
}

/**
 * Codes whose `details` (beside the `errors` list) are part of the answer, machine-readable: UNKNOWN_KEY's
 * `{ key, suggestion? }`. Other codes' details stay on the server (they may hold upstream text or headers).
 */
const ANSWERED_DETAILS = new Set(['UNKNOWN_KEY']);

function answeredDetails(err: PaiError): { details?: Record<string, unknown> } {
  if (!ANSWERED_DETAILS.has(err.code) || !err.details || typeof err.details !== 'object') return {};
  const { errors: _list, ...rest } = err.details as Record<string, unknown>;
  return Object.keys(rest).length ? { details: rest } : {};
}

/** The `error` object for `err` in `locale` (English: exactly the fields the API has always answered). */
export function localizeError(err: PaiError, locale: Locale): ApiErrorBody {
  const list = (err.details as { errors?: unknown } | undefined)?.errors;
  const extra = { ...(err.path !== undefined ? { path: err.path } : {}), ...answeredDetails(err) };
  const english: ApiErrorBody = { code: err.code, message: err.message, ...extra };
  if (locale === 'en') return list ? { ...english, errors: list } : english;
  const issues = zodIssues.get(err);
  const head = localizeItem({ code: err.code, message: err.message, path: err.path }, locale, issues?.[0]);
  const body: ApiErrorBody = { code: err.code, message: head.message, ...(head.detail ? { detail: head.detail } : {}) };
  Object.assign(body, extra);
  if (Array.isArray(list)) body.errors = list.map((item, i) => localizeListItem(item, locale, issues?.[i]));
  else if (list) body.errors = list;
  return body;
}

function localizeListItem(item: unknown, locale: Locale, issue: ZodIssue | undefined): unknown {
  if (!item || typeof item !== 'object') return item;
  const x = item as ApiErrorItem;
  if (typeof x.message !== 'string' || typeof x.code !== 'string') return item;
  const { message, detail } = localizeItem(x, locale, issue);
  return { ...x, message, ...(detail ? { detail } : {}) };
}

/** The message (and detail) of one error or issue in a language other than English. */
function localizeItem(
  x: { code?: string; message: string; path?: string },
  locale: Locale,
  issue: ZodIssue | undefined,
): { message: string; detail?: string } {
  const code = x.code ?? '';
  const explanation = errorExplanation(code, locale);
  if (code === 'VALIDATION_ERROR') {
    const fromZod = zodMessageIn(locale, x.message, issue);
    if (fromZod) return { message: fromZod };
    if (!explanation) return { message: x.message };
    return { message: x.path ? `${explanation}（字段：${x.path}）` : explanation, detail: x.message };
  }
  if (!explanation) return { message: x.message };
  return carriesSpecifics(x.message, errorExplanation(code, 'en'))
    ? { message: explanation, detail: x.message }
    : { message: explanation };
}

/**
 * Whether a specific English message says something its code's explanation does not: a number (id, limit, status),
 * a quoted name, an id or setting name (with an underscore), a host or file name, or a reason after a colon.
 */
function carriesSpecifics(message: string, englishExplanation: string | undefined): boolean {
  if (!message.trim() || message === englishExplanation) return false;
  return /\d|["“”`]|\w_\w|\w[./]\w|:\s*\S/.test(message);
}

type IssueCandidate = Record<string, unknown> & { code: string };

const localeErrors: Partial<Record<Locale, (issue: IssueCandidate) => string | undefined>> = {};
const LOCALE_OF: Record<Locale, () => { localeError: unknown }> = { en: z.locales.en, 'zh-CN': z.locales.zhCN };

function zodLocale(locale: Locale): (issue: IssueCandidate) => string | undefined {
  return (localeErrors[locale] ??= (() => {
    const { localeError } = LOCALE_OF[locale]() as { localeError: (issue: unknown) => unknown };
    return (issue: IssueCandidate) => {
      try {
        const r = localeError(issue);
        return typeof r === 'string' ? r : (r as { message?: string } | undefined)?.message;
      } catch {
        return undefined;
      }
    };
  })());
}

/** Zod's own message in `locale` when `message` is zod's default English message of the issue; else undefined. */
function zodMessageIn(locale: Locale, message: string, issue: ZodIssue | undefined): string | undefined {
  const en = zodLocale('en');
  for (const candidate of issueCandidates(message, issue)) {
    if (en(candidate) === message) return zodLocale(locale)(candidate);
  }
  return undefined;
}

/** A value of each type name zod reports as "received …" (issues do not keep the input itself). */
const SAMPLES: Record<string, unknown> = {
  string: '',
  number: 0,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  boolean: false,
  bigint: BigInt(0),
  symbol: Symbol('sample'),
  undefined: undefined,
  null: null,
  array: [],
  object: {},
  function: () => undefined,
  Date: new Date(0),
};

const FORMATS = [
  'regex', 'email', 'url', 'emoji', 'uuid', 'uuidv4', 'uuidv6', 'nanoid', 'guid', 'cuid', 'cuid2', 'ulid', 'xid',
  'ksuid', 'datetime', 'date', 'time', 'duration', 'ipv4', 'ipv6', 'mac', 'cidrv4', 'cidrv6', 'base64', 'base64url',
  'json_string', 'e164', 'jwt', 'template_literal',
]; // prettier-ignore

/**
 * The issues zod may have made `message` from: the issue itself (with a sample input of the type its message says it
 * received), or, when only the message is known, issues rebuilt from the shape of zod's English messages. Each
 * candidate only counts when zod's English locale turns it back into exactly `message`.
 */
function issueCandidates(message: string, issue: ZodIssue | undefined): IssueCandidate[] {
  const out: IssueCandidate[] = [];
  const received = /, received (\S+)$/.exec(message)?.[1];
  if (issue) {
    const given = issue as unknown as IssueCandidate;
    out.push(given);
    if (received && received in SAMPLES) out.push({ ...given, input: SAMPLES[received] });
    return out;
  }
  let m = /^Invalid input: expected (\S+), received (\S+)$/.exec(message);
  if (m) out.push({ code: 'invalid_type', expected: m[1] === 'NaN' ? 'nan' : m[1], input: SAMPLES[m[2]] });
  m = /^Too (small|big): expected (\S+) to (?:have|be) (exactly |>=|<=|>|<)(-?[\d.e+]+)/.exec(message);
  if (m) {
    const bound = m[1] === 'small' ? 'minimum' : 'maximum';
    const exact = m[3] === 'exactly ';
    out.push({
      code: `too_${m[1]}`,
      origin: m[2],
      [bound]: Number(m[4]),
      exact,
      inclusive: exact || m[3].includes('='),
    });
  }
  m = /^Invalid (?:option: expected one of|input: expected) (.+)$/.exec(message);
  if (m) {
    const values = m[1].split('|').map(primitiveOf);
    if (!values.includes(NOT_PRIMITIVE)) out.push({ code: 'invalid_value', values });
  }
  m = /^Unrecognized keys?: (.+)$/.exec(message);
  if (m) out.push({ code: 'unrecognized_keys', keys: m[1].split(', ').map((k) => primitiveOf(k)) });
  m = /^Invalid number: must be a multiple of (.+)$/.exec(message);
  if (m) out.push({ code: 'not_multiple_of', divisor: Number(m[1]) });
  m = /^Invalid string: must (start with|end with|include) "(.*)"$/.exec(message);
  if (m) {
    const [format, field] = { 'start with': ['starts_with', 'prefix'], 'end with': ['ends_with', 'suffix'] }[
      m[1] as 'start with' | 'end with'
    ] ?? ['includes', 'includes'];
    out.push({ code: 'invalid_format', format, [field]: m[2] });
  }
  m = /^Invalid string: must match pattern (.+)$/.exec(message);
  if (m) out.push({ code: 'invalid_format', format: 'regex', pattern: m[1] });
  if (/^Invalid /.test(message)) for (const format of FORMATS) out.push({ code: 'invalid_format', format });
  m = /^Invalid (key|value) in (\S+)$/.exec(message);
  if (m) out.push({ code: m[1] === 'key' ? 'invalid_key' : 'invalid_element', origin: m[2] });
  if (message === 'Invalid input: more than one option matched') out.push({ code: 'invalid_union', inclusive: false });
  if (message === 'Invalid input') out.push({ code: 'invalid_union' });
  return out;
}

const NOT_PRIMITIVE = Symbol('not a primitive');

/** A value as zod's joinValues wrote it: JSON for strings, numbers, booleans and null; `undefined` as is. */
function primitiveOf(text: string): unknown {
  if (text === 'undefined') return undefined;
  if (/^-?\d+n$/.test(text)) return BigInt(text.slice(0, -1));
  try {
    const v: unknown = JSON.parse(text);
    return v === null || ['string', 'number', 'boolean'].includes(typeof v) ? v : NOT_PRIMITIVE;
  } catch {
    return NOT_PRIMITIVE;
  }
}
