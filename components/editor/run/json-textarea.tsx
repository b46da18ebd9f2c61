'use client';
/** The JSON editor of the run panel's pause boxes (tool-call arguments, a breakpoint's input): grows with its text. */
export function JsonTextArea({
  value,
  onChange,
  label,
  testId,
  invalid,
  tone,
  className = '',
}: {
  value: string;
  onChange(text: string): void;
  label: string;
  testId: string;
  invalid: boolean;
  /** The box's colour when valid (amber: approval, red: breakpoint). */
  tone: 'amber' | 'red';
  className?: string;
}) {
  const valid = tone === 'amber' ? 'border-amber-300 focus:ring-amber-200' : 'border-red-200 focus:ring-red-100';
  return (
    <textarea
      value={value}
      onChange={(e) => onChange(e.target.value)}
      rows={Math.min(12, Math.max(3, value.split('\n').length))}
      spellCheck={false}
      aria-label={label}
      data-testid={testId}
      className={
        `${className} w-full rounded-md border bg-white p-2 font-mono text-[11px] outline-none focus:ring-2 ` +
        (invalid ? 'border-red-400 focus:ring-red-100' : valid)
      }
    />
  );
}
