/**
 * Zod issues as problems, one per thing wrong. Schemas are strict (`z.strictObject`), so a key they do not know is an
 * `unrecognized_keys` issue; it becomes one UNKNOWN_KEY problem per key, pathed at the key itself, with the known key
 * it was most likely meant to be. The known keys are found by walking the schema along the issue's path (with the
 * input, to pick a discriminated union's branch); zod's finished issues do not carry the schema that raised them.
 */
import type { z } from 'zod';
import { toJsonPath } from './json-path';
import type { Problem } from './problem';
import { suggestKey } from './suggest-key';

export function unknownKeyMessage(key: string, suggestion?: string): string {
  return suggestion ? `unknown key "${key}" — did you mean "${suggestion}"?` : `unknown key "${key}"`;
}

/**
 * `issues` of parsing `input` with `schema`, as problems: unknown keys first (a misspelt key usually also makes its
 * right spelling "required", and the unknown key is the one to fix), every other issue with `code`. `base` prefixes
 * every path (`nodes[3].data.config`). Without the schema there is no suggestion.
 */
export function zodProblems(
  schema: z.ZodType | undefined,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  opts: { code: string; base?: string },
): Problem[] {
  const unknown: Problem[] = [];
  const other: Problem[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') {
      other.push({ code: opts.code, message: issue.message, path: toJsonPath(issue.path, opts.base) });
      continue;
    }
    const known = schema ? knownKeysAt(schema, issue.path, input) : new Set<string>();
    for (const key of issue.keys) {
      const suggestion = suggestKey(key, known);
      unknown.push({
        code: 'UNKNOWN_KEY',
        message: unknownKeyMessage(key, suggestion),
        path: toJsonPath([...issue.path, key], opts.base),
        details: suggestion ? { key, suggestion } : { key },
      });
    }
  }
  return [...unknown, ...other];
}

type Def = { type: string } & Record<string, unknown>;
type Schema = { _zod: { def: Def; propValues?: Record<string, Set<unknown>> } };

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The keys the object schema(s) at `path` declare. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[], input: unknown): Set<string> {
  const keys = new Set<string>();
  const walk = (s: Schema | undefined, i: number, value: unknown, depth: number): void => {
    if (!s?._zod || depth > 64) return;
    const def = s._zod.def;
    const next = (child: unknown, v: unknown) => walk(child as Schema, i + 1, v, depth + 1);
    const same = (child: unknown) => walk(child as Schema, i, value, depth + 1);
    if (WRAPPERS.has(def.type)) return same(def.innerType);
    if (def.type === 'lazy') return same((def.getter as () => unknown)());
    if (def.type === 'pipe' || def.type === 'intersection') {
      same(def.type === 'pipe' ? def.in : def.left);
      return same(def.type === 'pipe' ? def.out : def.right);
    }
    if (def.type === 'union') return branchesFor(def, value).forEach(same);
    if (i === path.length) {
      if (def.type === 'object') for (const k of Object.keys(def.shape as object)) keys.add(k);
      return;
    }
    const seg = path[i];
    const child = isObject(value) ? value[seg] : undefined;
    if (def.type === 'object') {
      const shape = def.shape as Record<PropertyKey, unknown>;
      return next(Object.hasOwn(shape, seg) ? shape[seg] : def.catchall, child);
    }
    if (def.type === 'record') return next(def.valueType, child);
    if (def.type === 'array') return next(def.element, child);
    if (def.type === 'tuple') {
      const items = def.items as unknown[];
      return next(typeof seg === 'number' && seg < items.length ? items[seg] : def.rest, child);
    }
  };
  walk(schema as unknown as Schema, 0, input, 0);
  return keys;
}

/** A discriminated union's branch for the value's discriminator (all branches when none matches). */
function branchesFor(def: Def, value: unknown): Schema[] {
  const options = def.options as Schema[];
  const disc = def.discriminator as string | undefined;
  if (!disc || !isObject(value)) return options;
  const chosen = options.filter((o) => o._zod.propValues?.[disc]?.has(value[disc]));
  return chosen.length ? chosen : options;
}

const isObject = (v: unknown): v is Record<PropertyKey, unknown> => typeof v === 'object' && v !== null;
