'use client';
/**
 * Forms generated from a node type's JSON Schema (the same zod schema the engine validates with):
 * strings → input / textarea (with `{{` autocomplete), numbers, booleans, enums → select, nested objects →
 * fieldsets, arrays of objects → rows with add / remove. Problems whose JSON path matches a field show under it.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { JsonSchema } from '@/components/api/types';
import type { ProblemView } from '../editor-store';
import { defaultForSchema, fieldPath } from '../graph-model';
import { TemplateField } from './template-field';

type Path = ReadonlyArray<string | number>;

export interface FormContextValue {
  /** Problems at exactly this path (relative to the node: `data.config.model`). */
  problemsAt: (path: string) => ProblemView[];
  suggestions: () => string[];
  onChangeAt: (path: Path, value: unknown) => void;
}

export const FormContext = createContext<FormContextValue | null>(null);
const useForm = () => useContext(FormContext)!;

const MULTILINE = new Set(['systemPrompt', 'userPrompt', 'template', 'body', 'prompt', 'instructions']);

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

function typeOf(schema: JsonSchema): string | undefined {
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

function FieldErrors({ path }: { path: Path }) {
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

function Label({
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

export function SchemaField({
  name,
  schema,
  value,
  path,
  required,
  compact,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: Path;
  required?: boolean;
  compact?: boolean;
}) {
  const { onChangeAt, problemsAt, suggestions } = useForm();
  const p = fieldPath(path);
  const testId = `field-${p.replace(/^data\.config\./, '').replace(/^data\./, '')}`;
  const invalid = problemsAt(p).length > 0;
  const t = typeOf(schema);
  const inputCls = `h-8 w-full rounded-md border bg-white px-2.5 text-[13px] outline-none focus:ring-2 ${invalid ? 'border-red-400 focus:ring-red-100' : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100'}`;
  const label =
    !compact || t !== 'boolean' ? (
      <Label name={name} required={required} description={compact ? undefined : schema.description} />
    ) : null;

  let control: ReactNode;
  if (schema.enum) {
    control = (
      <select
        value={value === undefined ? (schema.default === undefined ? '' : String(schema.default)) : String(value)}
        data-testid={testId}
        aria-label={humanize(name)}
        className={inputCls}
        onChange={(e) =>
          onChangeAt(path, e.target.value === '' ? undefined : schema.enum!.find((v) => String(v) === e.target.value))
        }
      >
        {((value === undefined && schema.default === undefined) || (!required && schema.default === undefined)) && (
          <option value="">—</option>
        )}
        {schema.enum.map((v) => (
          <option key={String(v)} value={String(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    );
  } else if (t === 'string') {
    const multiline = MULTILINE.has(name) || (schema.maxLength ?? 0) >= 10_000;
    control = (
      <TemplateField
        value={typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)}
        onChange={(v) => onChangeAt(path, v === '' && !required && schema.default === undefined ? undefined : v)}
        suggestions={suggestions}
        multiline={multiline}
        rows={name === 'template' || name === 'userPrompt' ? 4 : 3}
        invalid={invalid}
        testId={testId}
        ariaLabel={humanize(name)}
        mono={multiline}
        placeholder={schema.description && !compact ? undefined : schema.description}
      />
    );
  } else if (t === 'number' || t === 'integer') {
    control = (
      <input
        type="number"
        value={typeof value === 'number' ? value : ''}
        min={schema.minimum}
        max={schema.maximum}
        step={t === 'integer' ? 1 : 'any'}
        data-testid={testId}
        aria-label={humanize(name)}
        className={inputCls}
        placeholder={schema.default !== undefined ? String(schema.default) : undefined}
        onChange={(e) => onChangeAt(path, e.target.value === '' ? undefined : e.target.valueAsNumber)}
      />
    );
  } else if (t === 'boolean') {
    return (
      <div>
        <label className="flex cursor-pointer items-start gap-2 text-[12px] text-zinc-700" title={schema.description}>
          <input
            type="checkbox"
            checked={value === true || (value === undefined && schema.default === true)}
            data-testid={testId}
            onChange={(e) => onChangeAt(path, e.target.checked)}
            className="mt-0.5 h-3.5 w-3.5 shrink-0 rounded border-zinc-300 accent-indigo-600"
          />
          <span>
            <span className="font-medium">{humanize(name)}</span>
            {!compact && schema.description && (
              <span className="block text-[11px] text-zinc-400">{schema.description}</span>
            )}
          </span>
        </label>
        <FieldErrors path={path} />
      </div>
    );
  } else if (t === 'object' && schema.properties) {
    // An optional object that is absent (e.g. the loop's while-condition) stays folded until asked for.
    if (value === undefined && !required) {
      return (
        <div>
          <Label name={name} description={schema.description} />
          <button
            type="button"
            data-testid={`add-${testId.slice('field-'.length)}`}
            onClick={() => onChangeAt(path, defaultForSchema({ ...schema, default: undefined }))}
            className="inline-flex h-7 items-center rounded-md border border-dashed border-zinc-300 px-2.5 text-[12px] font-medium text-zinc-600 hover:border-indigo-400 hover:text-indigo-700"
          >
            + Add {humanize(name).toLowerCase()}
          </button>
        </div>
      );
    }
    return (
      <fieldset className="rounded-md border border-zinc-200 p-2.5">
        <legend className="px-1 text-[12px] font-medium text-zinc-700">
          {humanize(name)}
          {!required && schema.default === undefined && (
            <button
              type="button"
              className="ml-2 text-[11px] font-normal text-zinc-400 hover:text-red-600"
              onClick={() => onChangeAt(path, undefined)}
            >
              Remove
            </button>
          )}
        </legend>
        <ObjectFields schema={schema} value={(value ?? {}) as Record<string, unknown>} path={path} />
        <FieldErrors path={path} />
      </fieldset>
    );
  } else if (t === 'array' && schema.items && typeOf(schema.items) === 'object') {
    return (
      <ArrayField
        name={name}
        schema={schema}
        value={Array.isArray(value) ? value : []}
        path={path}
        required={required}
      />
    );
  } else if (t === 'array') {
    control = (
      <input
        type="text"
        value={Array.isArray(value) ? value.join(', ') : ''}
        data-testid={testId}
        aria-label={humanize(name)}
        className={inputCls}
        placeholder="comma, separated"
        onChange={(e) =>
          onChangeAt(
            path,
            e.target.value
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          )
        }
      />
    );
  } else {
    // Any JSON value (e.g. an input's default): numbers, booleans and JSON parse as such; everything else is text.
    const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    control = (
      <input
        type="text"
        defaultValue={text}
        data-testid={testId}
        aria-label={humanize(name)}
        className={`${inputCls} font-mono text-[12px]`}
        placeholder="text or JSON"
        onBlur={(e) => {
          const raw = e.target.value;
          if (raw === '') return onChangeAt(path, undefined);
          try {
            onChangeAt(path, JSON.parse(raw));
          } catch {
            onChangeAt(path, raw);
          }
        }}
      />
    );
  }
  return (
    <div>
      {label}
      {control}
      <FieldErrors path={path} />
    </div>
  );
}

export function ObjectFields({
  schema,
  value,
  path,
}: {
  schema: JsonSchema;
  value: Record<string, unknown>;
  path: Path;
}) {
  const required = new Set(schema.required ?? []);
  return (
    <div className="space-y-3">
      {Object.entries(schema.properties ?? {}).map(([k, p]) => (
        <SchemaField key={k} name={k} schema={p} value={value?.[k]} path={[...path, k]} required={required.has(k)} />
      ))}
    </div>
  );
}

function singular(word: string): string {
  if (/(ch|sh|ss|x)es$/i.test(word)) return word.slice(0, -2);
  return word.replace(/s$/i, '');
}

/** Simple scalar fields sit side by side in a row; text areas, nested arrays and objects take the full width. */
function isWide(name: string, s: JsonSchema) {
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

function ArrayField({
  name,
  schema,
  value,
  path,
  required,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown[];
  path: Path;
  required?: boolean;
}) {
  const { onChangeAt } = useForm();
  const item = schema.items!;
  const req = new Set(item.required ?? []);
  const max = schema.maxItems ?? Infinity;
  const add = () => {
    const fresh = defaultForSchema(item) as Record<string, unknown>;
    // Ids must be unique and valid identifiers (condition branch ids become handle ids).
    if (item.properties?.id && typeof fresh === 'object') {
      const taken = new Set(value.map((v) => (v as { id?: unknown })?.id));
      let i = value.length + 1;
      while (taken.has(`branch${i}`)) i++;
      fresh.id = `branch${i}`;
      if (item.properties.label) fresh.label = `branch${i}`;
    }
    onChangeAt(path, [...value, fresh]);
  };
  const itemName = singular(humanize(name)).toLowerCase();
  return (
    <div data-testid={`array-${fieldPath(path).replace(/^data\.config\./, '')}`}>
      <div className="mb-1.5 flex items-center justify-between">
        <Label name={name} required={required} description={schema.description} />
      </div>
      <div className="space-y-2">
        {value.length === 0 && (
          <div className="rounded-md border border-dashed border-zinc-300 px-3 py-2 text-[12px] text-zinc-400">
            None yet.
          </div>
        )}
        {value.map((v, i) => (
          <div key={i} className="rounded-md border border-zinc-200 bg-zinc-50/60 p-2.5" data-testid="array-row">
            <div className="mb-2 flex items-center justify-between">
              <span className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
                {itemName} {i + 1}
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
                aria-label={`Remove ${itemName} ${i + 1}`}
              >
                Remove
              </button>
            </div>
            <div className="grid grid-cols-2 gap-x-2 gap-y-2.5">
              {Object.entries(item.properties ?? {}).map(([k, p]) => (
                <div
                  key={k}
                  className={isWide(k, p) ? 'col-span-2' : typeOf(p) === 'boolean' ? 'flex items-end pb-1.5' : ''}
                >
                  <SchemaField
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
        className="mt-2 inline-flex h-7 items-center gap-1 rounded-md border border-dashed border-zinc-300 px-2.5 text-[12px] font-medium text-zinc-600 hover:border-indigo-400 hover:text-indigo-700 disabled:opacity-40"
      >
        + Add {itemName}
      </button>
      <FieldErrors path={path} />
    </div>
  );
}
