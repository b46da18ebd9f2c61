'use client';
/**
 * What surrounds every generated field: its label (the schema's `title`, which GET /api/node-types fills in the
 * reader's language, else a humanized key; a required mark, a clipped description) and the problems whose path is
 * exactly the field's, listed under it.
 */
import { useTranslations } from 'next-intl';
import type { JsonSchema } from '@/components/api/types';
import { fieldPath } from '../graph-model';
import { useForm, type Path } from './form-context';

export function humanize(key: string): string {
  const s = key
    .replace(/URL/g, 'Url')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return (s.charAt(0).toUpperCase() + s.slice(1))
    .replace(/\burl\b/gi, 'URL')
    .replace(/\bms\b/g, '(ms)')
    .replace(/\bid\b/g, 'ID');
}

export function singular(word: string): string {
  if (/(ch|sh|ss|x)es$/i.test(word)) return word.slice(0, -2);
  return word.replace(/s$/i, '');
}

/** The catalogue's schemas carry a localized `title` (lib/i18n/node-catalogue.ts). */
const titleOf = (schema: JsonSchema | undefined): string | undefined => {
  const title = schema?.title;
  return typeof title === 'string' && title ? title : undefined;
};

/** A field's label: its schema's title, else its key humanized (`maxTokens` → "Max tokens"). */
export function fieldLabel(name: string, schema: JsonSchema): string {
  return titleOf(schema) ?? humanize(name);
}

/** What one row of an array of objects is called: its items' title, else the singular key (`branches` → "branch"). */
export function itemLabel(name: string, schema: JsonSchema): string {
  return titleOf(schema.items) ?? singular(humanize(name)).toLowerCase();
}

export function FieldErrors({ path }: { path: Path }) {
  const problems = useForm().problemsAt(fieldPath(path));
  if (!problems.length) return null;
  return (
    <div className="mt-1 space-y-0.5">
      {problems.map((p) => (
        <p key={p.key} className="text-[11px] leading-snug text-red-600" data-testid="field-error" data-path={p.path}>
          {p.message}
        </p>
      ))}
    </div>
  );
}

export function Label({
  text,
  required,
  description,
  htmlFor,
}: {
  text: string;
  required?: boolean;
  description?: string;
  htmlFor?: string;
}) {
  const t = useTranslations('inspector.form');
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-[12px] font-medium text-zinc-700" title={description}>
      {text}
      {required && (
        <span className="ml-0.5 text-red-500" title={t('required')}>
          *
        </span>
      )}
      {description && (
        <span className="ml-1.5 font-normal text-zinc-400">
          {description.length > 70 ? `${description.slice(0, 70)}…` : description}
        </span>
      )}
    </label>
  );
}
