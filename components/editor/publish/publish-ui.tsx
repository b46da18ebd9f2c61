'use client';
/** Small building blocks of the publish panel: sections, inline errors, copy and two-step confirm buttons. */
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, errorMessage } from '@/components/api/client';
import { tr } from '@/components/lib/i18n';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';

export function Section({
  title,
  testId,
  children,
  aside,
}: {
  title: string;
  testId: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section data-testid={testId} className="border-b border-zinc-200 px-5 py-4 last:border-b-0">
      <div className="mb-2.5 flex items-center justify-between gap-2">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{title}</h3>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** An API error as one line: the message, with the code (and path) for reference. */
export function InlineError({ error, testId }: { error: unknown; testId: string }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : null;
  return (
    <p
      role="alert"
      data-testid={testId}
      data-code={code ?? undefined}
      className="mt-2 rounded-md border border-red-200 bg-red-50 px-2.5 py-1.5 text-[12px] text-red-800"
    >
      {errorMessage(error)}
      {code && ' '}
      {code && (
        <span className="ml-1.5 font-mono text-[10px] text-red-500">
          {code}
          {error instanceof ApiError && error.path ? ` · ${error.path}` : ''}
        </span>
      )}
    </p>
  );
}

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      /* fall back below (no permission, insecure context) */
    }
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand('copy');
  ta.remove();
  if (!ok) throw new Error(tr('publish.ui.copyRefused'));
}

export function CopyButton({ text, testId, label }: { text: string; testId: string; label?: string }) {
  const t = useTranslations('publish.ui');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Button
      size="sm"
      data-testid={testId}
      data-copied={copied || undefined}
      title={t('copyTitle')}
      onClick={() => {
        writeClipboard(text).then(
          () => {
            setCopied(true);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => setCopied(false), 1500);
          },
          (e) => toast('error', t('copyFailed'), errorMessage(e)),
        );
      }}
    >
      {copied ? t('copied') : (label ?? t('copy'))}
    </Button>
  );
}

/** A button that asks once more inline ("Revoke key? Yes / Cancel") before running `onConfirm`. */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  testId,
  disabled,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  testId: string;
  disabled?: boolean;
}) {
  const t = useTranslations('publish.ui');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <Button
        size="sm"
        variant="ghost"
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
        data-testid={testId}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </Button>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5" data-testid={`${testId}-confirmation`}>
      <span className="text-[12px] text-zinc-700">{question}</span>
      <Button
        size="sm"
        variant="danger"
        data-testid={`${testId}-confirm`}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {busy ? '…' : confirmLabel}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        data-testid={`${testId}-cancel`}
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        {t('cancel')}
      </Button>
    </span>
  );
}

/** A moment (ISO text) as a medium date and short time in the UI's language; the text itself if it is not a date. */
export function useFormatTime(): (iso: string | null | undefined) => string {
  const format = useFormatter();
  return useCallback(
    (iso) => {
      if (!iso) return '';
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : format.dateTime(d, { dateStyle: 'medium', timeStyle: 'short' });
    },
    [format],
  );
}

export const inputClass =
  'h-7 w-full rounded-md border border-zinc-300 px-2 text-[12px] outline-none focus:border-indigo-400 focus:ring-2 ' +
  'focus:ring-indigo-100';
