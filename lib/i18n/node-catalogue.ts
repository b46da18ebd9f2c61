/**
 * The node catalogue (GET /api/node-types) in the reader's language. The engine's node definitions keep their English
 * texts (validation and traces use them); this module puts the translations of the `nodes` messages (each node type's
 * engine/nodes/<type>/messages.<locale>.json) over a described catalogue: each type's label and description, its
 * handles' labels, its output fields' descriptions, and for every config property (at any depth, through array items
 * and anyOf variants) the JSON Schema `title` (the label the inspector shows), `description`, and for an array of
 * objects `items.title` (the name of one row). A key a language lacks keeps the engine's English (and a property with
 * no label keeps no title, so the inspector humanizes its name).
 *
 * Keys of `nodes`: `<type>.label`, `<type>.description`, `<type>.inputs.<handleId>`, `<type>.outputs.<handleId>`,
 * `<type>.outputFields.<path>` (dots in the path written as `/`), and `<type>.config.<prop>.{label,description,item}`
 * with nested properties under `<type>.config.<prop>.fields.<sub>…`. test/i18n/node-catalogue-is-translated.test.ts
 * checks that every registered type has all of them in both languages.
 */
import { createTranslator } from 'next-intl';
import type { NodeRegistry } from '@/engine/node-kit/registry';
import { MESSAGES } from '@/messages';
import type { Locale } from './locales';

export type DescribedNodeType = ReturnType<NodeRegistry['describe']>[number];

type Schema = { [key: string]: unknown };
type Lookup = (key: string) => string | undefined;

const lookups = new Map<Locale, Lookup>();

/** A message of the `nodes` namespace, formatted (ICU escapes undone), or undefined when the language lacks it. */
function lookupFor(locale: Locale): Lookup {
  let lookup = lookups.get(locale);
  if (!lookup) {
    const t = createTranslator({ locale, messages: MESSAGES[locale], namespace: 'nodes', onError: () => undefined });
    lookup = (key) => {
      if (!t.has(key as never)) return undefined;
      const text = t(key as never);
      return typeof text === 'string' && text ? text : undefined;
    };
    lookups.set(locale, lookup);
  }
  return lookup;
}

/** The message key of an output field: dots would read as nesting, so they are written as `/`. */
export function outputFieldKey(path: string): string {
  return path.replace(/\./g, '/');
}

const isSchema = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** The properties below `schema` (its own, its array items', its variants'), translated from the keys below `base`. */
function localizeFields(schema: Schema, base: string, msg: Lookup) {
  if (isSchema(schema.properties)) {
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (isSchema(prop)) localizeProperty(prop, `${base}.${name}`, msg);
    }
  }
  if (isSchema(schema.items)) localizeFields(schema.items, base, msg);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const variants = schema[key];
    if (Array.isArray(variants)) for (const v of variants) if (isSchema(v)) localizeFields(v, base, msg);
  }
}

function localizeProperty(prop: Schema, key: string, msg: Lookup) {
  const label = msg(`${key}.label`);
  if (label) prop.title = label;
  if (typeof prop.description === 'string') prop.description = msg(`${key}.description`) ?? prop.description;
  const item = msg(`${key}.item`);
  if (item && isSchema(prop.items)) prop.items.title = item;
  localizeFields(prop, `${key}.fields`, msg);
}

/** One described node type in `locale` (a copy; the input is not changed). */
export function localizeNodeType<T extends DescribedNodeType>(node: T, locale: Locale): T {
  const msg = lookupFor(locale);
  const k = node.type;
  const configSchema = structuredClone(node.configSchema) as Schema;
  localizeFields(configSchema, `${k}.config`, msg);
  return {
    ...node,
    label: msg(`${k}.label`) ?? node.label,
    description: msg(`${k}.description`) ?? node.description,
    configSchema: configSchema as T['configSchema'],
    inputs: node.inputs.map((h) => ({ ...h, label: msg(`${k}.inputs.${h.id}`) ?? h.label })),
    outputs: node.outputs.map((h) => ({ ...h, label: msg(`${k}.outputs.${h.id}`) ?? h.label })),
    outputFields: node.outputFields.map((f) => ({
      ...f,
      description: msg(`${k}.outputFields.${outputFieldKey(f.path)}`) ?? f.description,
    })),
  };
}

/** The catalogue `registry.describe()` answers, in `locale`. */
export function localizeCatalogue<T extends DescribedNodeType>(types: readonly T[], locale: Locale): T[] {
  return types.map((t) => localizeNodeType(t, locale));
}
