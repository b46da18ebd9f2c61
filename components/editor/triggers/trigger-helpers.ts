/**
 * The Triggers panel's pure parts: the Start inputs a webhook maps to, its default mapping and a sample body that
 * mapping reads, the copyable curl calls (signed as the hook route checks them), cron presets, fire times shown in
 * two time zones, a trigger's last error in plain words and API errors placed at the field their `path` names.
 * Kept apart from React so each is tested as it is.
 */
import type { DateTimeFormatOptions } from 'next-intl';
import { ApiError } from '@/components/api/client';
import type { Graph } from '@/components/api/types';
import { sampleInputs } from '../publish/snippets';

export const SECRET_PLACEHOLDER = 'YOUR_WEBHOOK_SECRET';
/** The header a `header` webhook reads when none is named (the server's DEFAULT_SECRET_HEADER). */
export const DEFAULT_SECRET_HEADER = 'x-webhook-secret';

export interface StartInput {
  name: string;
  type: string;
  required: boolean;
}

/** The inputs the graph's Start node declares, in order (what a webhook's mapping fills). */
export function startInputs(graph: Pick<Graph, 'nodes'> | null | undefined): StartInput[] {
  const start = graph?.nodes.find((n) => n.type === 'start');
  const decls = (start?.data as { config?: { inputs?: unknown } } | undefined)?.config?.inputs;
  if (!Array.isArray(decls)) return [];
  const out: StartInput[] = [];
  for (const d of decls as Array<{ name?: unknown; type?: unknown; required?: unknown }>)
    if (d && typeof d.name === 'string' && d.name)
      out.push({ name: d.name, type: typeof d.type === 'string' ? d.type : 'string', required: d.required !== false });
  return out;
}

export const defaultTemplate = (input: string) => `{{body.${input}}}`;

export interface MappingRow {
  input: string;
  template: string;
  /** false: the mapping names an input the Start node no longer declares. */
  declared: boolean;
}

/**
 * One row per Start input (its stored template, else `{{body.<input>}}`), then the stored entries for inputs the
 * Start node no longer declares, so nothing stored is hidden.
 */
export function mappingRows(inputs: StartInput[], stored?: Record<string, string>): MappingRow[] {
  const rows: MappingRow[] = inputs.map((i) => ({
    input: i.name,
    template: stored ? (stored[i.name] ?? '') : defaultTemplate(i.name),
    declared: true,
  }));
  for (const [input, template] of Object.entries(stored ?? {}))
    if (!inputs.some((i) => i.name === input)) rows.push({ input, template, declared: false });
  return rows;
}

/** The mapping to store: rows left blank are not mapped. */
export function mappingFromRows(rows: MappingRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.template.trim()) out[r.input] = r.template.trim();
  return out;
}

const BODY_REF = /^\{\{\s*body((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)\s*\}\}$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A JSON body the mapping reads: each template that is exactly `{{body.a.b}}` puts its input's sample value at
 * `a.b`. An empty mapping passes a JSON object body through as the inputs, so the sample is the inputs themselves.
 */
export function sampleBody(mapping: Record<string, string>, samples: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(mapping).length === 0) return { ...samples };
  const body: Record<string, unknown> = {};
  for (const [input, template] of Object.entries(mapping)) {
    const m = BODY_REF.exec(template.trim());
    if (!m) continue;
    const path = m[1].slice(1).split('.');
    if (path.some((p) => UNSAFE_KEYS.has(p))) continue;
    let at = body;
    for (const seg of path.slice(0, -1)) {
      const next = at[seg];
      if (!next || typeof next !== 'object' || Array.isArray(next)) at[seg] = {};
      at = at[seg] as Record<string, unknown>;
    }
    at[path[path.length - 1]] = input in samples ? samples[input] : '…';
  }
  return body;
}

/** The sample body for the draft's Start inputs through `mapping`. */
export function sampleBodyFor(graph: Pick<Graph, 'nodes'>, mapping: Record<string, string>) {
  return sampleBody(mapping, sampleInputs(graph));
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface CurlOptions {
  url: string;
  auth: { type: 'hmac' | 'header' | 'none'; header?: string };
  /** The secret while it is shown (just created or replaced), else null: a placeholder is written. */
  secret: string | null;
  body: unknown;
}

/**
 * A shell call of the webhook. HMAC: the body is signed with openssl exactly as the hook route checks it
 * (`X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`), so BODY is sent byte for byte as it was signed.
 */
export function buildWebhookCurl(o: CurlOptions): string {
  const secret = o.secret ?? SECRET_PLACEHOLDER;
  const lines = [`BODY=${shellQuote(JSON.stringify(o.body ?? {}))}`];
  if (o.auth.type === 'hmac') lines.push(`SECRET=${shellQuote(secret)}`);
  lines.push(`curl -X POST ${shellQuote(o.url)} \\`, `  -H 'content-type: application/json' \\`);
  if (o.auth.type === 'hmac')
    lines.push(
      `  -H "X-Signature: sha256=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" | cut -d' ' -f2)" \\`,
    );
  if (o.auth.type === 'header')
    lines.push(`  -H ${shellQuote(`${o.auth.header || DEFAULT_SECRET_HEADER}: ${secret}`)} \\`);
  lines.push(`  -d "$BODY"`);
  return lines.join('\n');
}

/**
 * A translator over one group of the `triggers` messages (`useTranslations('triggers.lastError')` in a component),
 * for the pure helpers below that word things for the user.
 */
export type Messages = (key: string, values?: Record<string, string | number>) => string;

export interface CronPreset {
  /** Its label: `triggers.schedule.presets.<key>`. */
  key: 'everyMinute' | 'hourly' | 'daily' | 'weekdays';
  cron: string;
}

export const CRON_PRESETS: CronPreset[] = [
  { key: 'everyMinute', cron: '* * * * *' },
  { key: 'hourly', cron: '0 * * * *' },
  { key: 'daily', cron: '0 9 * * *' },
  { key: 'weekdays', cron: '0 9 * * 1-5' },
];

/** Six fields: the first is seconds (croner's syntax), so times are shown with seconds. */
export const cronHasSeconds = (cron: string | undefined) => (cron ?? '').trim().split(/\s+/).length === 6;

/** The browser's IANA time zone (the default of a new schedule). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every IANA zone the browser knows, UTC first (some engines leave it out of the list). */
export function timeZones(): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** Formats a date with Intl options: next-intl's `format.dateTime` in a component, Intl in a locale by default. */
export type DateFormat = (d: Date, options: DateTimeFormatOptions) => string;

export interface FireTimeOptions {
  seconds?: boolean;
  /** The locale of the default formatter (the runtime's when absent). */
  locale?: string;
  format?: DateFormat;
}

/** A moment as a date and time in `timeZone` (with seconds when asked); the ISO text itself if it cannot be. */
export function formatInZone(iso: string, timeZone: string, opts: FireTimeOptions = {}) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const format: DateFormat = opts.format ?? ((date, o) => new Intl.DateTimeFormat(opts.locale, o).format(date));
  try {
    return format(d, {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(opts.seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
    });
  } catch {
    return iso;
  }
}

export interface FireTime {
  iso: string;
  /** In the schedule's zone. */
  inZone: string;
  /** In the viewer's zone; null when it is the schedule's. */
  local: string | null;
}

/** A schedule's fire time in its own zone and, when it differs, in the viewer's. */
export function fireTime(iso: string, scheduleZone: string, viewerZone: string, opts: FireTimeOptions = {}): FireTime {
  const inZone = formatInZone(iso, scheduleZone, opts);
  const local = scheduleZone === viewerZone ? null : formatInZone(iso, viewerZone, opts);
  return { iso, inZone, local: local === inZone ? null : local };
}

/** The codes `triggers.lastError` words in plain language. */
const WORDED_CODES = new Set([
  'NOT_PUBLISHED',
  'CONCURRENCY_LIMIT',
  'MISFIRE_SKIPPED',
  'MISSING_INPUT',
  'INVALID_INPUT',
  'WORKFLOW_NOT_FOUND',
]);

/**
 * A trigger's stored last error (`{ code, message }`) in plain words, with the server's text as detail. `t` is the
 * `triggers.lastError` messages.
 */
export function lastErrorText(
  lastError: unknown,
  t: Messages,
): { text: string; code: string | null; detail: string } | null {
  if (lastError === null || lastError === undefined) return null;
  const e = typeof lastError === 'object' ? (lastError as { code?: unknown; message?: unknown }) : {};
  const code = typeof e.code === 'string' ? e.code : null;
  const message = typeof e.message === 'string' ? e.message : typeof lastError === 'string' ? lastError : '';
  const words = code && WORDED_CODES.has(code) ? t(code) : undefined;
  const detail = message || code || t('unknown');
  return { text: words ?? (message ? capitalise(message) : t('notStarted')), code, detail };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Every problem an API error names: its own `path`, and each of `errors[]` (zod issues) with theirs. */
function problemsOf(error: unknown): Array<{ path: string; message: string }> {
  if (!(error instanceof ApiError)) return [];
  const list = (error.errors ?? []).map((p) => ({ path: p.path ?? '', message: p.message }));
  if (error.path !== undefined && !list.some((p) => p.path === error.path))
    list.unshift({ path: error.path, message: error.message });
  return list;
}

const under = (path: string, field: string) =>
  path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);

/** The message to show beside `field` (a JSON path: `cron`, `auth.secret`, `mapping.text`) if the error names it. */
export function fieldError(error: unknown, field: string): string | null {
  return problemsOf(error).find((p) => under(p.path, field))?.message ?? null;
}

/** Whether `error` is shown beside one of `fields` (else it belongs in the form's general error line). */
export function isFieldError(error: unknown, fields: string[]): boolean {
  const problems = problemsOf(error);
  return problems.length > 0 && problems.every((p) => fields.some((f) => under(p.path, f)));
}

/** A secret for a webhook, made in the browser (the API keeps the one it is given): `whsec_` + 32 random bytes. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const b64 = btoa(String.fromCharCode(...bytes));
  return `whsec_${b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** The entries of `next` that differ (as JSON) from what is stored: what a PATCH should name. */
export function changedFields<T extends object>(next: T, stored: object): Partial<T> {
  const out: Partial<T> = {};
  const old = stored as Record<string, unknown>;
  for (const k of Object.keys(next) as Array<keyof T & string>)
    if (JSON.stringify(next[k]) !== JSON.stringify(old[k])) out[k] = next[k];
  return out;
}

/** A JSON object typed by the user (fixed inputs, a test payload), or why it is not one (`t`: `triggers.json`). */
export function parseJsonObject(
  text: string,
  t: Messages,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '{}');
  } catch (e) {
    return { ok: false, message: t('invalid', { reason: (e as Error).message }) };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: t('notObject', { example: '{"text": "hello"}' }) };
  return { ok: true, value: value as Record<string, unknown> };
}
