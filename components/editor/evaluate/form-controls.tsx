'use client';
/** The Evaluate form's small controls: a labelled field with its mistake under it, and the input classes. */
import type { ReactNode } from 'react';

export const INPUT =
  'h-7 w-full min-w-0 rounded border border-zinc-300 bg-white px-1.5 text-[12px] text-zinc-800 ' +
  'focus:border-indigo-400 focus:outline-none';
export const TEXTAREA =
  'w-full min-w-0 rounded border border-zinc-300 bg-white px-1.5 py-1 font-mono text-[11px] text-zinc-800 ' +
  'focus:border-indigo-400 focus:outline-none';

/** A label above its control, and the mistake (if any) under it. */
export function Field({
  label,
  error,
  errorTestId,
  className = '',
  children,
}: {
  label: string;
  error?: string;
  errorTestId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={`flex min-w-0 flex-col gap-0.5 ${className}`}>
      <span className="text-[10px] font-medium uppercase tracking-wide text-zinc-500">{label}</span>
      {children}
      {error && (
        <span className="text-[11px] leading-snug text-red-600" data-testid={errorTestId} role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
