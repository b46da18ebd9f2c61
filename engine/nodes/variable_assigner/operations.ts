/**
 * The assigner's operations on a conversation variable (Dify's assigner v2: over-write/set, clear, append, extend,
 * remove-first, remove-last, +=, -=, *=, /=), which types each applies to, and how a value is read for a type: a
 * value that came through a template as text ("3", "true", a JSON array) is read as the declared type.
 */
import { PaiError } from '../../errors';
import { emptyValue, fitsType, type ConversationVariable } from '../../template/conversation-variables';

export const OPERATIONS = [
  'set',
  'clear',
  'append',
  'extend',
  'remove_first',
  'remove_last',
  'add',
  'subtract',
  'multiply',
  'divide',
] as const;
export type Operation = (typeof OPERATIONS)[number];

type VarType = ConversationVariable['type'];
const isArray = (t: VarType) => t.startsWith('array[');
/** The type of an array's items, as a variable type. */
const itemType = (t: VarType): VarType => t.slice(6, -1) as VarType;

/** Can `op` apply to a variable of `type`? */
export function appliesTo(op: Operation, type: VarType): boolean {
  if (op === 'set' || op === 'clear') return true;
  if (op === 'append' || op === 'extend' || op === 'remove_first' || op === 'remove_last') return isArray(type);
  return type === 'number';
}

/** Does `op` take a value? */
export const takesValue = (op: Operation) => op !== 'clear' && op !== 'remove_first' && op !== 'remove_last';

/** The type `op`'s value must have on a variable of `type`. */
export function valueType(op: Operation, type: VarType): VarType {
  if (op === 'append') return itemType(type);
  if (op === 'add' || op === 'subtract' || op === 'multiply' || op === 'divide') return 'number';
  return type;
}

/** `v` read as `type`: text that spells a value of that type is that value; anything else stays as it is. */
export function asType(type: VarType, v: unknown): unknown {
  if (typeof v !== 'string' || type === 'string') return v;
  const s = v.trim();
  if (type === 'number') return s !== '' && Number.isFinite(Number(s)) ? Number(s) : v;
  if (type === 'boolean') return s === 'true' ? true : s === 'false' ? false : v;
  try {
    return JSON.parse(s);
  } catch {
    return v;
  }
}

const arith = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
};

/** The variable's value after `op` (a new value; `current` is not changed). `at`: the operation's config path. */
export function apply(
  decl: ConversationVariable,
  current: unknown,
  op: Operation,
  given: unknown,
  at: string,
): unknown {
  if (!appliesTo(op, decl.type))
    throw new PaiError('ASSIGNER_OPERATION_TYPE', `"${op}" does not apply to "${decl.name}", a ${decl.type}`, {
      path: `${at}.operation`,
    });
  if (op === 'clear') return emptyValue(decl.type);
  const list = Array.isArray(current) ? current : [];
  if (op === 'remove_first') return list.slice(1);
  if (op === 'remove_last') return list.slice(0, -1);
  const want = valueType(op, decl.type);
  const value = asType(want, given);
  if (value === undefined || value === null)
    throw new PaiError('ASSIGNER_VALUE_REQUIRED', `"${op}" on "${decl.name}" needs a value`, { path: `${at}.value` });
  if (!fitsType(want, value))
    throw new PaiError('ASSIGNER_VALUE_TYPE', `"${op}" on "${decl.name}" needs a ${want} value`, {
      path: `${at}.value`,
    });
  if (op === 'set') return structuredClone(value);
  if (op === 'append') return [...list, structuredClone(value)];
  if (op === 'extend') return [...list, ...structuredClone(value as unknown[])];
  if (op === 'divide' && value === 0)
    throw new PaiError('ASSIGNER_DIVIDE_BY_ZERO', `"${decl.name}" cannot be divided by 0`, { path: `${at}.value` });
  const result = arith[op](typeof current === 'number' ? current : 0, value as number);
  if (!Number.isFinite(result))
    throw new PaiError('ASSIGNER_VALUE_TYPE', `"${op}" on "${decl.name}" gives no finite number`, {
      path: `${at}.value`,
    });
  return result;
}
