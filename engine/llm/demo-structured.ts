/**
 * The offline demo model's structured answers (a request with `responseFormat`): the JSON Schema filled from the last
 * user message by plain rules, so that a question classifier or a parameter extractor runs without a key and gives a
 * sensible answer. A choice (`enum`, or `anyOf` / `oneOf` of `const`s with a title and description) takes the option
 * that shares most words with the text (Chinese: characters), else one named "other" / "none", else the first. A
 * value is read after its name ("city: Paris", "age is 42"), else by its type: numbers, quoted strings, e-mail
 * addresses and dates in the order they appear; what the text does not hold is empty (or false, or 0 when required).
 */

type Schema = Record<string, unknown>;

const FALLBACK_OPTIONS = ['other', 'none', 'unknown'];
const STOP = new Set(
  (
    'a an and are as at be by do for from has have i in is it me my of on or please the to was we what ' +
    'with you your'
  ).split(' '),
);
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** The words of a text for overlap: lower-case Latin words (a plural's "s" dropped) and single CJK characters. */
export function overlapTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const part of m[0].split(/(?=[\u3400-\u9fff\uf900-\ufaff])|(?<=[\u3400-\u9fff\uf900-\ufaff])/u)) {
      if (CJK.test(part)) {
        if (!'的了是我你吗呢吧啊在和有'.includes(part)) out.add(part);
      } else if (part.length > 1 && !STOP.has(part)) out.add(part.length > 3 ? part.replace(/s$/, '') : part);
    }
  }
  return out;
}

interface Option {
  value: unknown;
  text: string;
}

function optionsOf(s: Schema): Option[] | undefined {
  const list = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(list) && list.every((o) => o && typeof o === 'object' && 'const' in o))
    return list.map((o) => ({ value: o.const, text: [o.const, o.title, o.description].filter(Boolean).join(' ') }));
  if (Array.isArray(s.enum)) return s.enum.map((v) => ({ value: v, text: String(v) }));
  return undefined;
}

function choose(options: Option[], text: string): unknown {
  const words = overlapTokens(text);
  let best: Option | undefined;
  let bestScore = 0;
  for (const o of options) {
    if (FALLBACK_OPTIONS.includes(String(o.value).toLowerCase())) continue;
    let score = 0;
    for (const w of overlapTokens(o.text)) if (words.has(w)) score++;
    if (score > bestScore) [best, bestScore] = [o, score];
  }
  const fallback = options.find((o) => FALLBACK_OPTIONS.includes(String(o.value).toLowerCase())) ?? options[0];
  return (best ?? fallback)?.value;
}

const NUMBER = /-?\d+(?:[.,]\d+)*(?:\.\d+)?/g;
const QUOTED = /"([^"\n]+)"|“([^”\n]+)”|「([^」\n]+)」|'([^'\n]{2,})'/g;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const DATE = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b|(\d{4})年(\d{1,2})月(\d{1,2})日/g;

const pad = (n: string) => n.padStart(2, '0');
const toNumber = (s: string) => Number(s.replace(/,(?=\d{3}\b)/g, ''));

function dates(text: string): string[] {
  return [...text.matchAll(DATE)].map((m) => {
    const [y, mo, d] = m[1] ? [m[1], m[2], m[3]] : [m[4], m[5], m[6]];
    return `${y}-${pad(mo)}-${pad(d)}`;
  });
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What follows the property's name: "city: Paris", "city = Paris", "city is Paris", "城市：巴黎". */
function afterName(name: string, text: string): string | undefined {
  const spaced = escapeRegex(name).replace(/[_-]/g, '[ _-]?');
  const m = new RegExp(`(?:^|[^\\p{L}\\p{N}])${spaced}\\s*(?:[:=：]|\\bis\\b|为|是)\\s*([^,;\\n，；。]+)`, 'iu').exec(
    text,
  );
  // A sentence ends the value too: "city: Paris. Book …".
  return (
    m?.[1]
      .split(/[.!?]\s/)[0]
      .trim()
      .replace(/[.!?]+$/, '') || undefined
  );
}

/** An optional value's schema (`anyOf: [{ type }, { type: "null" }]`) as its non-null variant, with its description. */
function typed(s: Schema): Schema {
  const list = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (!Array.isArray(list) || list.every((o) => o && typeof o === 'object' && 'const' in o)) return s;
  const own = list.find((o) => o && typeof o === 'object' && o.type !== 'null');
  return own ? { ...own, ...(s.description ? { description: s.description } : {}) } : s;
}

class Reader {
  private used = new Map<string, number>();
  /** The text without its dates and e-mail addresses, where numbers are looked for. */
  private readonly plain: string;
  /** The numbers not yet taken: a value read after its name takes its number out of the order. */
  private readonly numbers: string[];
  constructor(readonly text: string) {
    this.plain = text.replace(DATE, ' ').replace(EMAIL, ' ');
    this.numbers = this.plain.match(NUMBER) ?? [];
  }

  private takeNumber(raw?: string): string | undefined {
    const at = raw === undefined ? 0 : this.numbers.indexOf(raw);
    return at < 0 ? raw : (this.numbers.splice(at, 1)[0] ?? raw);
  }

  /** The next value of a kind, in the order they appear. */
  next(kind: string, all: string[]): string | undefined {
    const i = this.used.get(kind) ?? 0;
    this.used.set(kind, i + 1);
    return all[i];
  }

  fill(schema: Schema, name: string, required: boolean): unknown {
    const s = typed(schema);
    const options = optionsOf(s);
    if (options?.length) return choose(options, this.text);
    const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string) : (s.type as string);
    const named = name ? afterName(name, this.text) : undefined;
    const hint = `${name} ${String(s.description ?? '')} ${String(s.format ?? '')}`.toLowerCase();
    switch (type) {
      case 'number':
      case 'integer': {
        const raw = this.takeNumber(named?.match(NUMBER)?.[0]);
        const n = raw === undefined ? undefined : toNumber(raw);
        if (n === undefined || !Number.isFinite(n)) return required ? 0 : null;
        return type === 'integer' ? Math.round(n) : n;
      }
      case 'boolean':
        if (named) return /^(yes|true|y|1|是|对)/i.test(named);
        return required ? false : null;
      case 'array': {
        const item = (s.items ?? {}) as Schema;
        const itemType = item.type;
        if (itemType === 'number' || itemType === 'integer')
          return (this.plain.match(NUMBER) ?? []).map(toNumber).filter(Number.isFinite);
        if (itemType === 'string') {
          if (/mail/.test(hint)) return this.text.match(EMAIL) ?? [];
          const quoted = [...this.text.matchAll(QUOTED)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
          if (quoted.length) return quoted;
          return named ? named.split(/\s*(?:\band\b|、|和)\s*/).filter(Boolean) : [];
        }
        return [];
      }
      case 'object':
        return s.properties ? this.object(s) : {};
      default: {
        if (/mail/.test(hint)) return this.next('email', this.text.match(EMAIL) ?? []) ?? (required ? '' : null);
        if (/date|day|日期/.test(hint) || s.format === 'date')
          return named && dates(named)[0]
            ? dates(named)[0]
            : (this.next('date', dates(this.text)) ?? (required ? '' : null));
        if (named) return named.replace(/^["“「']|["”」']$/g, '');
        const quoted = [...this.text.matchAll(QUOTED)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
        return this.next('quoted', quoted) ?? (required ? '' : null);
      }
    }
  }

  object(s: Schema): Record<string, unknown> {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props = (s.properties ?? {}) as Record<string, Schema>;
    // Values named in the text first, so that reading the others by position skips what those took.
    const entries = Object.entries(props);
    const named = new Set(entries.filter(([k]) => afterName(k, this.text) !== undefined).map(([k]) => k));
    const values = new Map<string, unknown>();
    for (const [k, p] of [...entries.filter(([k]) => named.has(k)), ...entries.filter(([k]) => !named.has(k))])
      values.set(k, this.fill(p, k, required.has(k)));
    return Object.fromEntries(entries.map(([k]) => [k, values.get(k)]));
  }
}

/** The demo model's answer to a structured request: `schema` filled from `text`. */
export function demoStructured(schema: Schema, text: string): unknown {
  return new Reader(text).fill(schema, '', true);
}
