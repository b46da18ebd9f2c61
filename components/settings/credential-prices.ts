/**
 * The price rows of an OpenAI-compatible credential's form, to and from the `prices` table its data accepts
 * (engine/llm/prices.ts: `{ "<model or prefix*>": { input, cachedInput?, output } }`, USD per million tokens). Every
 * problem is named by its row and field, so the form can show it beside the input; the limits are the server's own
 * schema's, so what passes here is what the API accepts.
 */
import { priceTableSchema, type ModelPrice } from '@/engine/llm/prices';

export interface PriceRow {
  model: string;
  input: string;
  cachedInput: string;
  output: string;
}

export type PriceField = keyof PriceRow;

export interface PriceProblem {
  row: number;
  field: PriceField;
  message: string;
}

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
    if (!model) problems.push({ row, field: 'model', message: 'name the model (or a prefix ending in *)' });
    else if (seen.has(model.toLowerCase()))
      problems.push({ row, field: 'model', message: `priced already in row ${seen.get(model.toLowerCase())! + 1}` });
    const price: Partial<ModelPrice> = {};
    for (const field of ['input', 'cachedInput', 'output'] as const) {
      const text = r[field].trim();
      if (!text) {
        if (field !== 'cachedInput') problems.push({ row, field, message: 'required' });
        continue;
      }
      const n = amountOf(text);
      if (n === null) problems.push({ row, field, message: 'a number of USD, e.g. 0.15' });
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
      problems.push({ row, field, message: amountMessage(issue) });
    else problems.push({ row, field: 'model', message: keyMessage(issue) });
  }
  return { prices: undefined, problems };
}

type Issue = { code: string; message: string; maximum?: unknown; issues?: Issue[] };

/** A model id the schema refused: what its key check said (too long, or a `*` not at the end). */
function keyMessage(issue: Issue): string {
  const inner = issue.issues?.[0] ?? issue;
  return inner.code === 'too_big' ? `at most ${String(inner.maximum)} characters` : inner.message;
}

function amountMessage(issue: Issue): string {
  return issue.code === 'too_big' ? `at most ${String(issue.maximum)} USD per million tokens` : issue.message;
}

/** The problem of one field, for the input it belongs to. */
export function problemOf(problems: PriceProblem[], row: number, field: PriceField): string | undefined {
  return problems.find((p) => p.row === row && p.field === field)?.message;
}
