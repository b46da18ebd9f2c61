/**
 * Names people give things (workflows, nodes, knowledge bases, documents, credentials, users): printable text only.
 * A NUL cannot be stored in a PostgreSQL text column, and other control characters only hide what a name says.
 */
import { z } from 'zod';

export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const NO_CONTROL_CHARACTERS = 'control characters (such as NUL or line breaks) are not allowed in names';

/** A trimmed, non-empty name of at most `max` characters without control characters. */
export function nameSchema(max: number, required = 'name is required') {
  return z
    .string()
    .trim()
    .min(1, required)
    .max(max)
    .refine((s) => !CONTROL_CHARACTERS.test(s), NO_CONTROL_CHARACTERS);
}
