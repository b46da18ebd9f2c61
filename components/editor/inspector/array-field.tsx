'use client';
/**
 * An array of objects in the generated form: one bordered row per item with its fields side by side (wide ones span
 * the row), a remove button per row and an add button that fills in unique branch ids. A row's fields are rendered by
 * the component the form passes in (`Field`: schema-form.tsx's SchemaField, which renders this one for nested arrays),
 * so the recursion runs through a prop and the two modules do not import each other.
 */
import { useTranslations } from 'next-intl';
import type { ComponentType } from 'react';
import type { JsonSchema } from '@/components/api/types';
import { defaultForSchema, fieldPath } from '../graph-model';
import { fieldLabel, FieldErrors, itemLabel, Label } from './field-chrome';
import { useForm, type Path } from './form-context';
import { isWide, typeOf } from './schema-kinds';

/** The props a row gives each of its fields. */
export interface RowFieldProps {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: Path;
  required: boolean;
  compact: true;
}

export function ArrayField({
  name,
  schema,
  value,
  path,
  required,
  Field,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown[];
  path: Path;
  required?: boolean;
  /** Renders one field of a row (the form's SchemaField). */
  Field: ComponentType<RowFieldProps>;
}) {
  const { onChangeAt } = useForm();
  const t = useTranslations('inspector.form');
  const item = schema.items!;
  const req = new Set(item.required ?? []);
  const max = schema.maxItems ?? Infinity;
  const add = () => {
    const fresh = defaultForSchema(item) as Record<string, unknown>;
    // Ids must be unique and valid identifiers (condition branch and classifier class ids become handle ids).
    if (item.properties?.id && typeof fresh === 'object') {
      const prefix = name.replace(/(?:es|s)$/, '') || 'item'; // i18n-exempt: ids, "branches" → branch1
      const taken = new Set(value.map((v) => (v as { id?: unknown })?.id));
      let i = value.length + 1;
      while (taken.has(`${prefix}${i}`)) i++;
      fresh.id = `${prefix}${i}`;
      if (item.properties.label) fresh.label = `${prefix}${i}`;
      else if (item.properties.name) fresh.name = `${prefix}${i}`;
    }
    onChangeAt(path, [...value, fresh]);
  };
  const itemName = itemLabel(name, schema);
  return (
    <div data-testid={`array-${fieldPath(path).replace(/^data\.config\./, '')}`}>
      <div className="mb-1.5 flex items-center justify-between">
        <Label text={fieldLabel(name, schema)} required={required} description={schema.description} />
      </div>
      <div className="space-y-2">
        {value.length === 0 && (
          <div className="rounded-md border border-dashed border-zinc-300 px-3 py-2 text-[12px] text-zinc-400">
            {t('noItems')}
          </div>
        )}
        {value.map((v, i) => (
          <div key={i} className="rounded-md border border-zinc-200 bg-zinc-50/60 p-2.5" data-testid="array-row">
            <div className="mb-2 flex items-center justify-between">
              <span className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
                {t('row', { item: itemName, n: i + 1 })}
              </span>
              <button
                type="button"
                className="rounded px-1.5 text-[11px] text-zinc-500 hover:bg-red-50 hover:text-red-600"
                data-testid="remove-row"
                onClick={() =>
                  onChangeAt(
                    path,
                    value.filter((_, j) => j !== i),
                  )
                }
                aria-label={t('removeRow', { item: itemName, n: i + 1 })}
              >
                {t('remove')}
              </button>
            </div>
            <div className="grid grid-cols-2 gap-x-2 gap-y-2.5">
              {Object.entries(item.properties ?? {}).map(([k, p]) => (
                <div
                  key={k}
                  className={isWide(k, p) ? 'col-span-2' : typeOf(p) === 'boolean' ? 'flex items-end pb-1.5' : ''}
                >
                  <Field
                    name={k}
                    schema={p}
                    value={(v as Record<string, unknown>)?.[k]}
                    path={[...path, i, k]}
                    required={req.has(k)}
                    compact
                  />
                </div>
              ))}
            </div>
            <FieldErrors path={[...path, i]} />
          </div>
        ))}
      </div>
      <button
        type="button"
        onClick={add}
        disabled={value.length >= max}
        data-testid="add-row"
        className={
          'mt-2 inline-flex h-7 items-center gap-1 rounded-md border border-dashed border-zinc-300 px-2.5 ' +
          'text-[12px] font-medium text-zinc-600 hover:border-indigo-400 hover:text-indigo-700 disabled:opacity-40'
        }
      >
        {t('addRow', { item: itemName })}
      </button>
      <FieldErrors path={path} />
    </div>
  );
}
