/** Reading the loosely-typed values of a source document: what is there, or a default. */

export type Dict = Record<string, unknown>;

export const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

export const dict = (v: unknown): Dict => (isDict(v) ? v : {});

export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const dicts = (v: unknown): Dict[] => list(v).filter(isDict);

export const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;

export function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

export const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Whole number within [min, max], or undefined. */
export function int(v: unknown, min: number, max: number): number | undefined {
  const n = num(v);
  return n === undefined ? undefined : clamp(Math.round(n), min, max);
}
