/**
 * How deep a JSON text nests, found without parsing it or recursing, and stopping as soon as it passes the limit: a
 * body or a JSONL line nested millions deep costs a scan of its first few hundred characters, not a parse that builds
 * millions of arrays (and then a recursive walk that overflows the stack, answered as a 500).
 */

/**
 * Deeper values are refused wherever a user's JSON or YAML is read: graph validation, templating, zod and the stores
 * walk values recursively.
 */
export const MAX_VALUE_DEPTH = 256;

/**
 * The [ / { nesting of `text` from `start` to `end` (strings skipped): its maximum when that is at most `limit`, else
 * `limit + 1` as soon as the scan passes it.
 */
export function jsonDepth(text: string, limit: number, start = 0, end = text.length): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123 /* [ { */) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 93 || c === 125 /* ] } */) depth--;
  }
  return max;
}
