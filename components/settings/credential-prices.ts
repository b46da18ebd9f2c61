/**
 * The price rows of an OpenAI-compatible credential's form, to and from the `prices` table its data accepts
 * (engine/llm/prices.ts: `{ "<model or prefix*>": { input, cachedInput?, output } }`, USD per million tokens). Every
 * problem is named by its row and field, so the form can show it beside the input; the limits are the server's own
 * schema's, so what passes here is what the API accepts. A problem is a message key (settings.prices.problems.<code>)
 * with its values: the form shows it in the reader's language.
 */
import { priceTableSchema, type ModelPrice } from '@/engine/llm/prices';

export interface PriceRow {
  model: string;
  input: string;
  cachedInput: string;
  output: string;
}

export type PriceField = keyof PriceRow;

/** What is wrong with a field: the keys of settings.prices.problems. */
export type PriceProblemCode =
  'modelMissing' | 'duplicate' | 'required' | 'notANumber' | 'tooLong' | 'tooMuch' | 'badId' | 'invalid';

export interface PriceProblem {
  row: number;
  field: PriceField;
  code: PriceProblemCode;
  /** The message's placeholders (`row`, `max`, `message`). */
  values?: Record<string, string | number>;
}

/** A problem's code and values, without where it is. */
type Problem = Pick<PriceProblem, 'code' | 'values'>;

export const EMPTY_PRICE_ROW: PriceRow = { model: '', input: '', cachedInput: '', output: '' };

const blank = (r: PriceRow) => !r.model.trim() && !r.input.trim() && !r.cachedInput.trim() && !r.output.trim();

/** A typed amount: a plain decimal number (`0.15`, `2`, `.5`), not `1e3`, `$1` or `0x10`. */
function amountOf(text: string): number | null {
  const t = text.trim();
  return /^\d+(\.\d*)?$|^\.\d+$/.test(t) ? Number(t) : null;
}

/**
 * The table the rows describe (undefined when no row is filled in: the credential has no prices of its own), or the
 * problems. Rows left wholly empty are ignored; model ids are compared case-insensitively, as prices are looked up.
 */
export function pricesFromRows(rows: PriceRow[]): {
  prices: Record<string, ModelPrice> | undefined;
  problems: PriceProblem[];
} {
  const problems: PriceProblem[] = [];
  const table: Record<string, ModelPrice> = {};
  const rowOf = new Map<string, number>();
  const seen = new Map<string, number>();
  rows.forEach((r, row) => {
    if (blank(r)) return;
    const model = r.model.trim();
    if (!model) problems.push({ row, field: 'model', code: 'modelMissing' });
    else if (seen.has(model.toLowerCase()))
      problems.push({ row, field: 'model', code: 'duplicate', values: { row: seen.get(model.toLowerCase())! + 1 } });
    const price: Partial<ModelPrice> = {};
    for (const field of ['input', 'cachedInput', 'output'] as const) {
      const text = r[field].trim();
      if (!text) {
        if (field !== 'cachedInput') problems.push({ row, field, code: 'required' });
        continue;
      }
      const n = amountOf(text);
      if (n === null) problems.push({ row, field, code: 'notANumber' });
      else price[field] = n;
    }
    if (model && !seen.has(model.toLowerCase())) {
      seen.set(model.toLowerCase(), row);
      rowOf.set(model, row);
      table[model] = price as ModelPrice;
    }
  });
  if (problems.length) return { prices: undefined, problems };
  if (!rowOf.size) return { prices: undefined, problems };
  // The server's schema decides the limits (id shape and length, amounts up to its maximum).
  const checked = priceTableSchema.safeParse(table);
  if (checked.success) return { prices: checked.data, problems };
  for (const issue of checked.error.issues) {
    const [model, field] = issue.path as [string | undefined, string | undefined];
    const row = model !== undefined ? (rowOf.get(model) ?? 0) : 0;
    if (field === 'input' || field === 'cachedInput' || field === 'output')
      problems.push({ row, field, ...amountProblem(issue) });
    else problems.push({ row, field: 'model', ...keyProblem(issue) });
  }
  return { prices: undefined, problems };
}

type Issue = { code: string; message: string; maximum?: unknown; issues?: Issue[] };

/** A model id the schema refused: what its key check said (too long, or a `*` not at the end). */
function keyProblem(issue: Issue): Problem {
  const inner = issue.issues?.[0] ?? issue;
  if (inner.code === 'too_big') return { code: 'tooLong', values: { max: String(inner.maximum) } };
  if (inner.code === 'invalid_format') return { code: 'badId' };
  return { code: 'invalid', values: { message: inner.message } };
}

function amountProblem(issue: Issue): Problem {
  if (issue.code === 'too_big') return { code: 'tooMuch', values: { max: String(issue.maximum) } };
  return { code: 'invalid', values: { message: issue.message } };
}

/** The problem of one field, for the input it belongs to. */
export function problemOf(problems: PriceProblem[], row: number, field: PriceField): PriceProblem | undefined {
  return problems.find((p) => p.row === row && p.field === field);
}
