'use client';
/**
 * A row's inputs, outputs or expectation: an object as one `key: value` line per field — the fields the scorers
 * read first, since they are what a reader compares — anything else as one line. Cut to a line each unless expanded.
 */
import { formatValue, NONE } from './format';

export function RowValue({
  value,
  first = [],
  expanded,
  testId,
}: {
  value: unknown;
  first?: readonly string[];
  expanded: boolean;
  testId?: string;
}) {
  const wrap = expanded ? 'whitespace-pre-wrap break-words' : 'truncate';
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return (
      <div className={`${wrap} font-mono text-[11px]`} title={formatValue(value)} data-testid={testId}>
        {formatValue(value)}
      </div>
    );
  const entries = Object.entries(value as Record<string, unknown>);
  const rank = (k: string) => (first.includes(k) ? first.indexOf(k) : first.length);
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return (
    <div className="min-w-0 font-mono text-[11px]" data-testid={testId}>
      {!entries.length && NONE}
      {entries.map(([k, v]) => (
        <div key={k} className={wrap} title={`${k}: ${formatValue(v)}`}>
          <span className="text-zinc-400">{k}:</span> {formatValue(v)}
        </div>
      ))}
    </div>
  );
}

/** The End outputs a list of scorers reads (those that name theirs), in scorer order. */
export function scoredFields(scorers: ReadonlyArray<Record<string, unknown>>): string[] {
  return [...new Set(scorers.map((s) => s.field).filter((f): f is string => typeof f === 'string'))];
}
