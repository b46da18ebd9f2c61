/**
 * One condition (a value, an operator, what to compare with), shared by the condition node's branches and the loop
 * node's while mode: its config schema and its save-time regex check. Comparing is compare.ts.
 */
import { z } from 'zod';
import type { ConfigProblem } from '../../node-kit/define';
import { OPERATORS } from './compare';
import { checkRegexForSave } from './regex';

export const conditionSchema = z.strictObject({
  left: z.string().describe('Value to test, usually a {{ref}}'),
  op: z.enum(OPERATORS),
  right: z.string().optional().describe('Value to compare with (ignored by is_empty / not_empty)'),
  valueType: z.enum(['auto', 'string', 'number', 'boolean']).default('auto'),
});

/**
 * Save-time check of a regex condition whose pattern is written out (no `{{ref}}`): one too complex to run
 * (REGEX_TOO_COMPLEX), one using a feature RE2 lacks such as a backreference or lookaround (REGEX_UNSUPPORTED) or one
 * that does not parse (INVALID_REGEX) is refused with its path; a pattern from a ref is checked when the node runs.
 */
export function regexProblems(c: { op: string; right?: string }, path: string): ConfigProblem[] {
  if (c.op !== 'regex' || c.right === undefined || c.right.includes('{{')) return [];
  try {
    checkRegexForSave(c.right);
    return [];
  } catch (e) {
    return [{ code: (e as { code: string }).code, message: (e as Error).message, path }];
  }
}
