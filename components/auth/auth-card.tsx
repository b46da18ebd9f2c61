'use client';
/** The centred card, labelled fields and posting form shared by the sign-in, setup and invitation pages. */
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { localRedirectPath } from '@/lib/http/local-redirect';
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';

const noSubscribe = () => () => {};

/**
 * False in the server-rendered HTML, true once React runs: until then a click would submit the form natively (a GET
 * with the password in the URL), so the button waits.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}

export function AuthCard({
  title,
  subtitle,
  error,
  busy,
  submitLabel,
  onSubmit,
  testId,
  children,
  after,
}: {
  title: string;
  subtitle?: ReactNode;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: () => void;
  testId: string;
  children: ReactNode;
  /** Below the submit button: another way in (the login page's single sign-on). */
  after?: ReactNode;
}) {
  const hydrated = useHydrated();
  const t = useTranslations('auth');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <main className="grid min-h-screen place-items-center bg-zinc-100 p-6">
      <form
        onSubmit={submit}
        data-testid={testId}
        className="w-full max-w-sm space-y-4 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm"
      >
        <div className="flex items-center gap-2">
          <span className="grid h-7 w-7 place-items-center rounded-md bg-indigo-500 text-[11px] font-bold text-white">
            {/* i18n-exempt: the logo mark */}
            Pf
          </span>
          <h1 className="text-base font-semibold text-zinc-900">{title}</h1>
        </div>
        {subtitle && <p className="text-sm text-zinc-500">{subtitle}</p>}
        {children}
        {error && (
          <p role="alert" data-testid="auth-form-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <Button
          type="submit"
          variant="primary"
          className="w-full"
          disabled={busy || !hydrated}
          data-testid="auth-submit"
        >
          {busy ? t('pleaseWait') : submitLabel}
        </Button>
        {after}
      </form>
    </main>
  );
}

export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-[13px] font-medium text-zinc-700">
        {label}
      </label>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required
        onChange={(e) => onChange(e.target.value)}
        className={
          'h-9 w-full rounded-md border border-zinc-300 px-2.5 text-sm outline-none ' +
          'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
        }
      />
    </div>
  );
}

/** A text field of an auth form, without its value; `field` names its label (auth.fields.<field>). */
export interface FieldSpec {
  id: string;
  field: 'name' | 'email' | 'password';
  type?: string;
  autoComplete: string;
}

export const nameField = (id: string): FieldSpec => ({ id, field: 'name', autoComplete: 'name' });
export const emailField = (id: string): FieldSpec => ({ id, field: 'email', type: 'email', autoComplete: 'username' });
export const passwordField = (id: string, autoComplete: 'current-password' | 'new-password'): FieldSpec => ({
  id,
  field: 'password',
  type: 'password',
  autoComplete,
});

/**
 * An AuthCard with text fields, keyed by the names the API takes: `send` posts their values, then the page goes to
 * `next()`; on an error the card shows it (as `describeError` words it) and the user can try again.
 */
export function AuthForm<K extends string>({
  fields,
  send,
  next = () => '/',
  describeError = errorMessage,
  footer,
  ...card
}: {
  title: string;
  subtitle?: ReactNode;
  submitLabel: string;
  testId: string;
  fields: Record<K, FieldSpec>;
  send: (values: Record<K, string>) => Promise<unknown>;
  next?: () => string;
  describeError?: (e: unknown) => string;
  /** Shown below the fields; it gets the error on show, if any. */
  footer?: (error: string | null) => ReactNode;
  after?: ReactNode;
}) {
  const router = useRouter();
  const t = useTranslations('auth');
  const keys = Object.keys(fields) as K[];
  const [values, setValues] = useState(() => Object.fromEntries(keys.map((k) => [k, ''])) as Record<K, string>);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await send(values);
      router.push(next());
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <AuthCard {...card} error={error} busy={busy} onSubmit={submit}>
      {keys.map((k) => {
        const { field, ...spec } = fields[k];
        return (
          <TextField
            key={k}
            {...spec}
            label={t(`fields.${field}`)}
            value={values[k]}
            onChange={(v) => setValues((s) => ({ ...s, [k]: v }))}
          />
        );
      })}
      {footer?.(error)}
    </AuthCard>
  );
}

/** Where to go after signing in: the `next` the gate passed along, resolved as the browser would, if on this site. */
export function nextPath(): string {
  return localRedirectPath(new URLSearchParams(window.location.search).get('next'), window.location.origin);
}
