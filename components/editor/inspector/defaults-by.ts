/**
 * Defaults that follow a choice: a config field whose JSON Schema has `defaultsBy: { <enum field>: { <value>: … } }`
 * (the Code node's `code`, by `language`) takes the default of the newly chosen value when the enum changes — but
 * only while it still holds a default (of any choice, or the schema's own) or nothing, so a user's own text is
 * never replaced.
 */
import type { JsonSchema } from '@/components/api/types';

type WithDefaultsBy = JsonSchema & { defaultsBy?: Record<string, Record<string, unknown>> };

/** The fields of `config` to change, and their new values, when `field` of `schema`'s object becomes `value`. */
export function defaultsFollowing(
  schema: JsonSchema | undefined,
  config: Record<string, unknown> | undefined,
  field: string,
  value: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const byChoice = (prop as WithDefaultsBy).defaultsBy?.[field];
    if (!byChoice || !(String(value) in byChoice)) continue;
    const current = config?.[name];
    const untouched =
      current === undefined ||
      current === '' ||
      current === prop.default ||
      Object.values(byChoice).some((d) => d === current);
    if (untouched && current !== byChoice[String(value)]) out[name] = byChoice[String(value)];
  }
  return out;
}
