/**
 * What a model call costs, in USD. A price table maps a model id, or a prefix pattern ending in `*`, to USD per
 * million tokens (input, cached input, output). Tables are layered, most specific first: an OpenAI-compatible
 * credential's `prices`, then MODEL_PRICES, then the built-in list (price-table.ts); the first layer that knows the
 * model decides. Within a layer: the exact id, else the longest matching prefix pattern, else the id without its date
 * or version suffix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`), because providers answer with dated ids.
 *
 * A model no layer knows costs `null`, "unknown": never a guessed figure. A sum with an unknown part is unknown.
 */
import type { ModelPrice, PriceTable } from '../config/price-table-schema';
import { BUILT_IN_PRICES } from './price-table';
import type { Usage } from './types';

export {
  modelPriceSchema,
  parsePriceTable,
  parsePriceTableJson,
  priceTableSchema,
  type ModelPrice,
  type PriceTable,
} from '../config/price-table-schema';

/** `-2024-07-18`, `-20240718`, `-0125`, `-latest`: the suffixes providers add to a model's id. */
const VERSIONED = /^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$/;

interface Layer {
  exact: Map<string, ModelPrice>;
  /** Longest prefix first. */
  prefixes: Array<[string, ModelPrice]>;
}

function layerOf(table: PriceTable): Layer {
  const exact = new Map<string, ModelPrice>();
  const prefixes: Array<[string, ModelPrice]> = [];
  for (const [key, price] of Object.entries(table)) {
    const k = key.trim().toLowerCase();
    if (k.endsWith('*')) prefixes.push([k.slice(0, -1), price]);
    else exact.set(k, price);
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  return { exact, prefixes };
}

function lookup(layer: Layer, id: string): ModelPrice | undefined {
  const exact = layer.exact.get(id);
  if (exact) return exact;
  const prefix = layer.prefixes.find(([p]) => id.startsWith(p));
  if (prefix) return prefix[1];
  const base = VERSIONED.exec(id)?.[1];
  return base ? layer.exact.get(base) : undefined;
}

const round = (usd: number) => Math.round(usd * 1e10) / 1e10;

/** USD for `usage` at `price`: cached input tokens (part of the input tokens) at the cached rate. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const input = Math.max(0, usage.inputTokens ?? 0);
  const cached = Math.min(input, Math.max(0, usage.cachedTokens ?? 0));
  const output = Math.max(0, usage.outputTokens ?? 0);
  return round(
    ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / 1e6,
  );
}

/** The sum of two costs: unknown (null) when either is unknown or missing; missing when both are. */
export function addCost(a: number | null | undefined, b: number | null | undefined): number | null | undefined {
  if (a === undefined && b === undefined) return undefined;
  if (typeof a !== 'number' || typeof b !== 'number') return null;
  return round(a + b);
}

/**
 * A run's (or any set of spans') total: the tokens and cost of every usage given; nulls (no LLM work) are skipped.
 * `demo: true` when the offline demo model answered any of them.
 */
export function totalUsage(usages: Iterable<Partial<Usage> | null | undefined>): {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  demo?: true;
} {
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | null | undefined = 0;
  let demo = false;
  for (const u of usages) {
    if (!u) continue;
    inputTokens += u.inputTokens ?? 0;
    outputTokens += u.outputTokens ?? 0;
    costUsd = addCost(costUsd, u.costUsd);
    if (u.demo) demo = true;
  }
  return { inputTokens, outputTokens, costUsd: costUsd ?? null, ...(demo ? { demo: true as const } : {}) };
}

/** `usage` that says what it cost: a provider that did not price it gets `costUsd: null` (unknown). */
export function withStatedCost(usage: Usage): Usage {
  return usage.costUsd === undefined ? { ...usage, costUsd: null } : usage;
}

export class ModelPrices {
  private readonly layers: Layer[];

  /** `tables`: most specific first; undefined ones are skipped. */
  constructor(...tables: Array<PriceTable | undefined>) {
    this.layers = tables.filter((t): t is PriceTable => !!t).map(layerOf);
  }

  /** The price of the first of `models` (e.g. the requested id, then the id the provider answered with) found. */
  priceOf(...models: Array<string | undefined>): ModelPrice | undefined {
    const ids = models.filter((m): m is string => !!m?.trim()).map((m) => m.trim().toLowerCase());
    for (const layer of this.layers)
      for (const id of ids) {
        const price = lookup(layer, id);
        if (price) return price;
      }
    return undefined;
  }

  /** `usage` with its `costUsd`: null when no table prices the model. */
  priced(usage: Usage, ...models: Array<string | undefined>): Usage {
    const price = this.priceOf(...models);
    return { ...usage, costUsd: price ? costOf(usage, price) : null };
  }
}

/** The built-in list alone (a provider built without a price configuration). */
export const BUILT_IN_MODEL_PRICES = new ModelPrices(BUILT_IN_PRICES);

/** A credential's prices over MODEL_PRICES over the built-in list. */
export function modelPrices(o: { credential?: PriceTable; env?: PriceTable } = {}): ModelPrices {
  return new ModelPrices(o.credential, o.env, BUILT_IN_PRICES);
}
