/**
 * How a JSON Schema property maps onto the generated form: its effective type, whether it takes a text area or the
 * full width of an array row, and which paths the form renders (so problems elsewhere can be listed separately).
 */
import type { JsonSchema } from '@/components/api/types';
import { fieldPath } from '../graph-model';
import type { Path } from './form-context';

export const MULTILINE = new Set(['systemPrompt', 'userPrompt', 'template', 'body', 'prompt', 'instructions']);

export function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

/** Every path the form renders for this value (so problems elsewhere can be listed separately). */
export function renderedPaths(schema: JsonSchema, value: unknown, base: Path, out: Set<string>) {
  const t = typeOf(schema);
  if (t === 'object' && schema.properties) {
    for (const [k, p] of Object.entries(schema.properties)) {
      const path = [...base, k];
      out.add(fieldPath(path));
      renderedPaths(p, (value as Record<string, unknown> | undefined)?.[k], path, out);
    }
  } else if (t === 'array' && schema.items && Array.isArray(value)) {
    value.forEach((v, i) => {
      out.add(fieldPath([...base, i]));
      renderedPaths(schema.items!, v, [...base, i], out);
    });
  }
}

/** Simple scalar fields sit side by side in a row; text areas, nested arrays and objects take the full width. */
export function isWide(name: string, s: JsonSchema) {
  const t = typeOf(s);
  return (
    MULTILINE.has(name) ||
    t === 'array' ||
    t === 'object' ||
    name === 'description' ||
    name === 'value' ||
    name === 'left' ||
    name === 'right'
  );
}
