'use client';
/**
 * Forms generated from a node type's JSON Schema (the same zod schema the engine validates with):
 * strings → input / textarea (with `{{` autocomplete), numbers, booleans, enums → select, nested objects →
 * fieldsets, arrays of objects → rows with add / remove; workspace references (tools, skills, knowledge bases,
 * workflows) → pickers. Problems whose JSON path matches a field show under it.
 */
import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { JsonSchema } from '@/components/api/types';
import { defaultForSchema, fieldPath } from '../graph-model';
import { ArrayField } from './array-field';
import { CredentialSelect } from './credential-field';
import { fieldLabel, FieldErrors, Label } from './field-chrome';
import { useForm, type Path } from './form-context';
import { useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { ModelInput, modelKindFor } from './model-field';
import { pickerFor } from './picker-kinds';
import { ReferencePicker } from './reference-pickers';
import { MULTILINE, typeOf } from './schema-kinds';
import { TemplateField } from './template-field';

export { FormContext, type FormContextValue } from './form-context';
export { humanize } from './field-chrome';
export { renderedPaths } from './schema-kinds';

const selectNodeType = (s: EditorState) =>
  s.selectedIds.length === 1 ? s.nodes.find((n) => n.id === s.selectedIds[0])?.type : undefined;

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
  const tf = useTranslations('inspector.form');
  const locale = useLocale();
  const text = fieldLabel(name, schema);
  const nodeType = useEditorState(selectNodeType);
  const picker = pickerFor(nodeType, path);
  const modelKind = modelKindFor(nodeType, name);
  const p = fieldPath(path);
  const testId = `field-${p.replace(/^data\.config\./, '').replace(/^data\./, '')}`;
  const invalid = problemsAt(p).length > 0;
  const t = typeOf(schema);
  const inputCls =
    'h-8 w-full rounded-md border bg-white px-2.5 text-[13px] outline-none focus:ring-2 ' +
    (invalid ? 'border-red-400 focus:ring-red-100' : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100');
  const label =
    !compact || t !== 'boolean' ? (
      <Label text={text} required={required} description={compact ? undefined : schema.description} />
    ) : null;

  let control: ReactNode;
  if (picker) {
    // Workspace references (tools, skills, knowledge bases, workflows) are chosen from lists (picker-kinds.ts).
    control = (
      <ReferencePicker
        kind={picker}
        value={value}
        path={path}
        onChange={(v) => onChangeAt(path, v)}
        testId={testId}
        label={text}
        className={inputCls}
      />
    );
  } else if (modelKind) {
    control = (
      <ModelInput
        kind={modelKind}
        value={value}
        path={path}
        placeholder={schema.default !== undefined ? String(schema.default) : undefined}
        onChange={(v) => onChangeAt(path, v)}
        testId={testId}
        label={text}
        className={inputCls}
      />
    );
  } else if (name === 'credentialId') {
    control = (
      <CredentialSelect
        value={value}
        onChange={(v) => onChangeAt(path, v)}
        testId={testId}
        label={text}
        className={inputCls}
      />
    );
  } else if (schema.enum) {
    control = (
      <select
        value={value === undefined ? (schema.default === undefined ? '' : String(schema.default)) : String(value)}
        data-testid={testId}
        aria-label={text}
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
        rows={name === 'code' ? 12 : name === 'template' || name === 'userPrompt' ? 4 : 3}
        invalid={invalid}
        testId={testId}
        ariaLabel={text}
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
        aria-label={text}
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
            <span className="font-medium">{text}</span>
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
          <Label text={text} description={schema.description} />
          <button
            type="button"
            data-testid={`add-${testId.slice('field-'.length)}`}
            onClick={() => onChangeAt(path, defaultForSchema({ ...schema, default: undefined }))}
            className={
              'inline-flex h-7 items-center rounded-md border border-dashed border-zinc-300 px-2.5 text-[12px] ' +
              'font-medium text-zinc-600 hover:border-indigo-400 hover:text-indigo-700'
            }
          >
            {tf('addObject', { label: locale.startsWith('en') ? text.toLowerCase() : text })}
          </button>
        </div>
      );
    }
    return (
      <fieldset className="rounded-md border border-zinc-200 p-2.5">
        <legend className="px-1 text-[12px] font-medium text-zinc-700">
          {text}
          {!required && schema.default === undefined && (
            <button
              type="button"
              className="ml-2 text-[11px] font-normal text-zinc-400 hover:text-red-600"
              onClick={() => onChangeAt(path, undefined)}
            >
              {tf('remove')}
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
        Field={SchemaField}
      />
    );
  } else if (t === 'array') {
    control = (
      <input
        type="text"
        value={Array.isArray(value) ? value.join(', ') : ''}
        data-testid={testId}
        aria-label={text}
        className={inputCls}
        placeholder={tf('commaSeparated')}
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
        aria-label={text}
        className={`${inputCls} font-mono text-[12px]`}
        placeholder={tf('textOrJson')}
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
