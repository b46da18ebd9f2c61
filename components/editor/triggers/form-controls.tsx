'use client';
/**
 * The controls the webhook and schedule forms are built from, so both label, describe and report alike: a labelled
 * field with its API error beside it, radio choices under a legend, an on/off switch, and the form shell whose
 * footer shows the errors no field claims and the submit button.
 */
import { useTranslations } from 'next-intl';
import { useId, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError, inputClass } from '../publish/publish-ui';
import { isFieldError } from './trigger-helpers';

export const labelClass = 'mb-1 block text-[11px] font-medium text-zinc-600';

/** A label over its control, a hint under it, and the API's message for this field in red. */
export function Field({
  label,
  hint,
  error,
  children,
  testId,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Render prop: the control gets the id the label points at and the id of its description. */
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
  testId?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-3" data-testid={testId}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children({ id, describedBy })}
      {hint && (
        <p id={hintId} className="mt-1 text-[11px] text-zinc-500">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function FieldError({ message, id }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-[11px] text-red-700" data-testid="field-error">
      {message}
    </p>
  );
}

/** A trigger's name: optional, shown in the list instead of "Unnamed webhook/schedule". */
export function NameField({
  value,
  onChange,
  placeholder,
  error,
}: {
  value: string;
  onChange: (name: string) => void;
  placeholder: string;
  error: string | null;
}) {
  const t = useTranslations('triggers.form');
  return (
    <Field label={t('name')} error={error}>
      {({ id, describedBy }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          className={inputClass}
          value={value}
          maxLength={100}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export interface Choice<T extends string> {
  id: T;
  label: ReactNode;
  /** A line under the label saying what the choice does. */
  hint?: string;
}

/** Radio buttons under a legend, one per choice, then the API's message for the field. */
export function ChoiceFieldset<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
  control,
  children,
}: {
  legend: string;
  /** The radio group's name (unique in the page). */
  name: string;
  choices: Array<Choice<T>>;
  value: T;
  onChange: (id: T) => void;
  error: string | null;
  /** Between the choices and the error: a control the choice opens (e.g. the user's own secret). */
  control?: ReactNode;
  /** Under the error: a warning or a follow-up field. */
  children?: ReactNode;
}) {
  return (
    <fieldset className="mb-3">
      <legend className={labelClass}>{legend}</legend>
      <div className="space-y-1">
        {choices.map((c) => (
          <label
            key={c.id}
            className={`flex cursor-pointer ${c.hint ? 'items-start' : 'items-center'} gap-2 text-[12px] text-zinc-800`}
          >
            <input
              type="radio"
              name={name}
              className={c.hint ? 'mt-0.5 accent-indigo-600' : 'accent-indigo-600'}
              checked={value === c.id}
              onChange={() => onChange(c.id)}
            />
            {c.hint ? (
              <span>
                {c.label}
                <span className="block text-[11px] text-zinc-500">{c.hint}</span>
              </span>
            ) : (
              c.label
            )}
          </label>
        ))}
      </div>
      {control}
      <FieldError message={error} />
      {children}
    </fieldset>
  );
}

/** An on/off switch (role `switch`, named by `label`). */
export function Toggle({
  checked,
  onChange,
  label,
  disabled,
  testId,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  label: string;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={testId}
      onClick={() => onChange(!checked)}
      className={
        'relative inline-flex h-4 w-7 shrink-0 items-center rounded-full transition-colors disabled:opacity-50 ' +
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ' +
        (checked ? 'bg-emerald-500' : 'bg-zinc-300')
      }
    >
      <span
        className={
          'inline-block h-3 w-3 rounded-full bg-white shadow transition-transform ' +
          (checked ? 'translate-x-3.5' : 'translate-x-0.5')
        }
      />
    </button>
  );
}

/**
 * A webhook's or a schedule's form ("New …" / "Edit …"): every control disabled while read-only or saving; under
 * them the API's error when no field named in `fields` shows it, then "Create …" / "Save …".
 */
export function TriggerForm({
  noun,
  editing,
  readOnly,
  saving,
  error,
  fields,
  canSubmit = true,
  onSubmit,
  children,
}: {
  noun: 'webhook' | 'schedule';
  editing: boolean;
  readOnly: boolean;
  saving: boolean;
  error: unknown;
  /** The body fields the form shows errors beside; an error on any other path is shown in the footer. */
  fields: string[];
  /** False while a control holds something that cannot be sent (e.g. JSON that does not parse). */
  canSubmit?: boolean;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  const t = useTranslations('triggers.form');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
      aria-label={editing ? t(`${noun}.edit`) : t(`${noun}.new`)}
      noValidate
      className="border-b border-zinc-200 px-5 py-4"
    >
      <fieldset disabled={readOnly || saving} className="min-w-0">
        {children}
        {error != null && !isFieldError(error, fields) && <InlineError error={error} testId={`${noun}-form-error`} />}
        <div className="mt-3 flex justify-end">
          <Button type="submit" size="sm" variant="primary" disabled={readOnly || saving || !canSubmit}>
            {saving ? t('saving') : editing ? t(`${noun}.save`) : t(`${noun}.create`)}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
