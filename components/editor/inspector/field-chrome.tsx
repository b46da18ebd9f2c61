'use client';
/**
 * What surrounds every generated field: its label (a humanized key, a required mark, a clipped description) and the
 * problems whose path is exactly the field's, listed under it.
 */
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
  name,
  required,
  description,
  htmlFor,
}: {
  name: string;
  required?: boolean;
  description?: string;
  htmlFor?: string;
}) {
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-[12px] font-medium text-zinc-700" title={description}>
      {humanize(name)}
      {required && <span className="ml-0.5 text-red-500">*</span>}
      {description && (
        <span className="ml-1.5 font-normal text-zinc-400">
          {description.length > 70 ? `${description.slice(0, 70)}…` : description}
        </span>
      )}
    </label>
  );
}
