/**
 * The shape of a model price table (MODEL_PRICES, a credential's `prices`): checked where configuration is read, and
 * used by the cost lookup (engine/llm/prices.ts).
 */
import { z } from 'zod';

export interface ModelPrice {
  /** USD per million input tokens that were not served from the provider's cache. */
  input: number;
  /** USD per million cached input tokens; default: the input price. */
  cachedInput?: number;
  output: number;
}
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const perMillion = z.number().finite().min(0).max(100_000);
export const modelPriceSchema = z
  .object({ input: perMillion, cachedInput: perMillion.optional(), output: perMillion })
  .strict();
export const priceTableSchema = z.record(
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^*]+\*?$/, 'a model id, or a prefix ending in one *'),
  modelPriceSchema,
);

/** A validated table; throws an Error naming the first bad entry. */
export function parsePriceTable(value: unknown): PriceTable {
  const r = priceTableSchema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new Error(`${where}${issue.message}`);
}

/** MODEL_PRICES's text: a JSON object `{ "<model or prefix*>": { input, cachedInput?, output } }`. */
export function parsePriceTableJson(text: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('is not JSON');
  }
  return parsePriceTable(value);
}
