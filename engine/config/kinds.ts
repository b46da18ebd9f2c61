/**
 * The kinds of environment variable PaiFlow reads, as zod schemas from the raw string (or undefined) to a typed value,
 * each with its default as docs/configuration.md states it and the form a valid value takes (for the
 * error that names the variable). Numbers are read as JavaScript's Number() reads them (`1e3`, `0x10`, surrounding
 * spaces), as the code did before this module existed.
 */
import { z } from 'zod';

export interface Variable<T = unknown> {
  /** From the raw value (undefined when unset) to the typed one; an issue's message is the value's problem. */
  readonly schema: z.ZodType<T>;
  /** The default as docs/configuration.md gives it: `300`, `—` (none) or a description of a computed default. */
  readonly shown: string;
  /**
   * `shown` describes the default in words: computed (from the machine, another variable) or applied where the value
   * is used (the parsed value is then undefined). Otherwise the docs check compares `shown` with the parsed default.
   */
  readonly computed?: boolean;
  /** The form of a valid value, for error messages. */
  readonly expected: string;
  readonly description: string;
  /** An invalid value falls back to the default with a warning (what the code always did with it). */
  readonly lenient?: boolean;
  /** The value is never repeated in messages (keys, URLs that may carry credentials). */
  readonly sensitive?: boolean;
}

interface Common {
  description: string;
  shown?: string;
  computed?: boolean;
  lenient?: boolean;
  sensitive?: boolean;
}

const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);
const unsetIfBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const code = (v: unknown) => `\`${v}\``;

function variable<T>(schema: z.ZodType<T>, expected: string, dflt: unknown, o: Common): Variable<T> {
  const { description, computed, lenient, sensitive } = o;
  return {
    schema,
    expected,
    shown: o.shown ?? (dflt === undefined ? '—' : code(dflt)),
    description,
    computed,
    lenient,
    sensitive,
  };
}

function range(min?: number, max?: number, what = 'number'): string {
  if (min !== undefined && max !== undefined) return `a ${what} from ${min} to ${max}`;
  if (min !== undefined) return `a ${what} ≥ ${min}`;
  return max !== undefined ? `a ${what} ≤ ${max}` : `a ${what}`;
}

type NumberOptions = Common & { min?: number; max?: number; note?: string };

/** A whole number in a range; blank = unset. */
export function whole(o: NumberOptions & { default: number }): Variable<number>;
export function whole(o: NumberOptions & { default?: undefined }): Variable<number | undefined>;
export function whole(o: NumberOptions & { default?: number }): Variable<number | undefined> {
  let n = z.coerce.number({ error: 'is not a number' }).int({ error: 'is not a whole number' });
  if (o.min !== undefined) n = n.min(o.min, { error: `is below ${o.min}` });
  if (o.max !== undefined) n = n.max(o.max, { error: `is above ${o.max}` });
  const schema = z.preprocess(unsetIfBlank, o.default === undefined ? n.optional() : n.default(o.default));
  return variable(schema, range(o.min, o.max, 'whole number') + (o.note ?? ''), o.default, o);
}

/** Any finite number in a range (fractions too); blank = unset. */
export function numeric(o: NumberOptions & { default: number; above?: number }): Variable<number> {
  let n = z.coerce.number({ error: 'is not a number' });
  if (o.above !== undefined) n = n.gt(o.above, { error: `is not above ${o.above}` });
  if (o.min !== undefined) n = n.min(o.min, { error: `is below ${o.min}` });
  if (o.max !== undefined) n = n.max(o.max, { error: `is above ${o.max}` });
  const expected = o.above !== undefined ? `a number above ${o.above}` : range(o.min, o.max);
  return variable(z.preprocess(unsetIfBlank, n.default(o.default)), expected + (o.note ?? ''), o.default, o);
}

/**
 * A switch with the spelling the code always accepted (`on`: `v === '1'`, `v !== '0'`, …); every value is valid.
 * Empty = unset = `dflt`.
 */
export function flag(o: Common & { default: boolean; on: (raw: string) => boolean; spelled: string }) {
  const { default: dflt, on, spelled, ...common } = o;
  const schema = z.preprocess(unsetIfEmpty, z.string().optional()).transform((v) => (v === undefined ? dflt : on(v)));
  return variable<boolean>(schema, spelled, undefined, { shown: dflt ? code(1) : code(0), ...common });
}

/** Text; empty = unset (and blank too when `trim`, which also trims the value). */
export function text(o: Common & { default: string; trim?: boolean; min?: number }): Variable<string>;
export function text(o: Common & { default?: undefined; trim?: boolean; min?: number }): Variable<string | undefined>;
export function text(o: Common & { default?: string; trim?: boolean; min?: number }): Variable<string | undefined> {
  let s = o.trim ? z.string().trim() : z.string();
  if (o.min) s = s.min(o.min, { error: `is shorter than ${o.min} characters` });
  const inner = o.default === undefined ? s.optional() : s.default(o.default);
  const schema = z.preprocess(o.trim ? unsetIfBlank : unsetIfEmpty, inner);
  return variable(schema, o.min ? `text of ${o.min} or more characters` : 'text', o.default, o);
}

/** An absolute http(s) URL (trimmed, as the code used it); blank = unset. */
export function httpUrl(o: Common): Variable<string | undefined> {
  const s = z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (!URL.canParse(v)) ctx.addIssue({ code: 'custom', message: 'is not a URL' });
      else if (!/^https?:$/.test(new URL(v).protocol))
        ctx.addIssue({ code: 'custom', message: 'is not an http(s) URL' });
    });
  return variable(z.preprocess(unsetIfBlank, s.optional()), 'an http:// or https:// URL', undefined, o);
}

/** Any string, shaped by `parse`, which throws an Error whose message is the value's problem. */
export function shaped<T>(o: Common & { expected: string; parse: (raw: string | undefined) => T; default?: unknown }) {
  const schema = z.preprocess(unsetIfEmpty, z.string().optional()).transform((v, ctx) => {
    try {
      return o.parse(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });
  return variable<T>(schema, o.expected, o.default, o);
}

/** A comma-separated list (entries trimmed, empty ones dropped); unset = []. */
export function list(o: Common): Variable<readonly string[]> {
  return shaped({
    ...o,
    expected: 'a comma-separated list',
    parse: (v) =>
      Object.freeze(
        (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  });
}
