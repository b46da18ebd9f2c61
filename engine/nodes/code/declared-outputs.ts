/**
 * A Code node's declared outputs (Dify's `outputs: { name: type }`): when the node declares them, main's result must
 * be an object with each of them, of its type; its other keys pass through. Checked on our side, after the sandbox.
 */
import { PaiError } from '../../errors';

export const OUTPUT_TYPES = [
  'string',
  'number',
  'boolean',
  'object',
  'array[string]',
  'array[number]',
  'array[boolean]',
  'array[object]',
] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function matches(type: OutputType, v: unknown): boolean {
  if (type === 'object') return isObject(v);
  if (type.startsWith('array[')) {
    const item = type.slice(6, -1) as OutputType;
    return Array.isArray(v) && v.every((x) => matches(item, x));
  }
  return typeof v === type && (type !== 'number' || Number.isFinite(v));
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** Throws CODE_OUTPUT_MISMATCH when `value` lacks a declared output or has one of another type. */
export function checkDeclaredOutputs(value: unknown, declared: Record<string, OutputType> | undefined): void {
  if (!declared || Object.keys(declared).length === 0) return;
  if (!isObject(value))
    throw new PaiError('CODE_OUTPUT_MISMATCH', `main returned ${kind(value)}; the declared outputs need an object`, {
      path: 'config.outputs',
    });
  const result = value as Record<string, unknown>;
  for (const [name, type] of Object.entries(declared)) {
    if (!Object.hasOwn(result, name))
      throw new PaiError('CODE_OUTPUT_MISMATCH', `main's result has no "${name}" (declared as ${type})`, {
        path: `config.outputs.${name}`,
      });
    if (!matches(type, result[name]))
      throw new PaiError('CODE_OUTPUT_MISMATCH', `main's "${name}" is ${kind(result[name])}, declared as ${type}`, {
        path: `config.outputs.${name}`,
      });
  }
}
