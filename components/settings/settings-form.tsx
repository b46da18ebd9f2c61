'use client';
/** The form pieces of the settings pages: labelled fields, a form that submits through the API, its busy state. */
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { errorMessage } from '@/components/api/client';

export const inputCls =
  'h-8 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-[13px] outline-none ' +
  'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100';

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="mb-1 block text-[12px] font-medium text-zinc-700">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A labelled input: `onChange` gets the new value; other props go to the input (className: `inputCls`). */
export function InputField({
  id,
  label,
  onChange,
  className = inputCls,
  ...input
}: { id: string; label: string; value: string; onChange: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange'
>) {
  return (
    <Field id={id} label={label}>
      <input id={id} {...input} onChange={(e) => onChange(e.target.value)} className={className} />
    </Field>
  );
}

/** A labelled select of `children` options: `onChange` gets the chosen value. */
export function SelectField({
  id,
  label,
  value,
  onChange,
  testId,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Field id={id} label={label}>
      <select
        id={id}
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputCls}
      >
        {children}
      </select>
    </Field>
  );
}

/** A form that calls `onSubmit` instead of submitting natively. */
export function SettingsForm({
  className,
  onSubmit,
  children,
}: {
  className: string;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A form's submit: `busy` while `action` runs, then the API's error, if any. */
export function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
