'use client';
/**
 * A list of names chosen from grouped options: the chosen ones as removable chips (an unknown one, or one with a
 * problem at its path, in red with the problem under it), a "Choose…" panel with a filter and a checkbox per
 * option, and — where patterns are allowed — a free-text entry (e.g. `mcp__github__*`).
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ProblemView } from '../editor-store';

export interface PickOption {
  value: string;
  label?: string;
  description?: string;
}

export interface PickGroup {
  label: string;
  options: PickOption[];
  /** Why this group has no options (e.g. its MCP server failed to start). */
  error?: string;
}

export function MultiPicker({
  value,
  onChange,
  groups,
  loading,
  error,
  hint,
  custom,
  testId,
  label,
  problemsAtItem,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  groups: PickGroup[];
  loading?: boolean;
  error?: string | null;
  hint?: string;
  /** Free text allowed: its placeholder and an optional check (message when invalid). */
  custom?: { placeholder: string; check?: (v: string) => string | null };
  testId: string;
  label: string;
  problemsAtItem: (i: number) => ProblemView[];
}) {
  const t = useTranslations('inspector.picker');
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const known = new Map(groups.flatMap((g) => g.options.map((o) => [o.value, o] as const)));
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  const addText = () => {
    const v = text.trim();
    if (!v) return;
    const why = custom?.check?.(v) ?? null;
    setTextError(why);
    if (why) return;
    if (!value.includes(v)) onChange([...value, v]);
    setText('');
  };
  const f = filter.trim().toLowerCase();
  const matches = (o: PickOption) =>
    !f || [o.value, o.label ?? '', o.description ?? ''].some((s) => s.toLowerCase().includes(f));

  return (
    <div data-testid={testId} aria-label={label}>
      <div className="flex flex-wrap gap-1" data-testid={`${testId}-chosen`}>
        {value.length === 0 && <span className="text-[12px] text-zinc-400">{t('noneChosen')}</span>}
        {value.map((v, i) => {
          const problems = problemsAtItem(i);
          const unknown = !loading && !error && !known.has(v) && !v.endsWith('*');
          const bad = problems.length > 0 || unknown;
          return (
            <span
              key={`${v}-${i}`}
              data-testid="picked"
              data-value={v}
              data-invalid={bad || undefined}
              title={problems.map((p) => p.message).join('\n') || known.get(v)?.description || v}
              className={
                'inline-flex max-w-full items-center gap-1 rounded border px-1.5 py-0.5 font-mono text-[11px] ' +
                (bad ? 'border-red-300 bg-red-50 text-red-700' : 'border-zinc-200 bg-zinc-50 text-zinc-700')
              }
            >
              <span className="truncate">{known.get(v)?.label ?? v}</span>
              <button
                type="button"
                aria-label={t('unpick', { value: v })}
                data-testid="unpick"
                className="text-zinc-400 hover:text-red-600"
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </span>
          );
        })}
      </div>
      {value.map((v, i) =>
        problemsAtItem(i).map((p) => (
          <p key={p.key} className="mt-0.5 text-[11px] text-red-600" data-testid="field-error" data-path={p.path}>
            {p.message}
          </p>
        )),
      )}
      <div className="mt-1.5 flex items-center gap-2">
        <button
          type="button"
          data-testid={`${testId}-open`}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className={
            'inline-flex h-7 items-center rounded-md border border-zinc-300 bg-white px-2.5 text-[12px] ' +
            'font-medium text-zinc-700 hover:border-indigo-400 hover:text-indigo-700'
          }
        >
          {open ? t('done') : t('choose')}
        </button>
        {loading && <span className="text-[11px] text-zinc-400">{t('loading')}</span>}
      </div>
      {error && <p className="mt-1 text-[11px] text-amber-700">{t('listFailed', { error })}</p>}
      {hint && <p className="mt-1 text-[11px] text-zinc-500">{hint}</p>}
      {open && (
        <div className="mt-1.5 rounded-md border border-zinc-200 bg-white p-2" data-testid={`${testId}-options`}>
          <input
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder={t('filter')}
            aria-label={t('filterLabel', { label })}
            className={
              'mb-1.5 h-7 w-full rounded border border-zinc-200 px-2 text-[12px] outline-none ' +
              'focus:border-indigo-400'
            }
          />
          <div className="max-h-64 space-y-2 overflow-y-auto">
            {groups.map((g) => {
              const shown = g.options.filter(matches);
              if (!shown.length && !g.error) return null;
              return (
                <div key={g.label} data-testid="pick-group" data-group={g.label}>
                  <div className="text-[10px] font-semibold uppercase tracking-wider text-zinc-400">{g.label}</div>
                  {g.error && <p className="text-[11px] text-amber-700">{g.error}</p>}
                  {shown.map((o) => (
                    <label
                      key={o.value}
                      className="flex cursor-pointer items-start gap-2 rounded px-1 py-0.5 text-[12px] hover:bg-zinc-50"
                      title={o.description}
                    >
                      <input
                        type="checkbox"
                        data-testid="pick-option"
                        data-value={o.value}
                        checked={value.includes(o.value)}
                        onChange={() => toggle(o.value)}
                        className="mt-0.5 h-3.5 w-3.5 shrink-0 accent-indigo-600"
                      />
                      <span className="min-w-0">
                        <span className="font-mono text-[11px] text-zinc-800">{o.label ?? o.value}</span>
                        {o.description && (
                          <span className="block truncate text-[11px] text-zinc-400">{o.description}</span>
                        )}
                      </span>
                    </label>
                  ))}
                </div>
              );
            })}
            {!loading && groups.every((g) => !g.options.length && !g.error) && (
              <p className="text-[12px] text-zinc-400">{t('nothing')}</p>
            )}
          </div>
          {custom && (
            <div className="mt-2 flex gap-1.5 border-t border-zinc-100 pt-2">
              <input
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addText();
                  }
                }}
                placeholder={custom.placeholder}
                data-testid={`${testId}-custom`}
                aria-label={t('addByName', { label })}
                className={
                  'h-7 min-w-0 flex-1 rounded border px-2 font-mono text-[11px] outline-none focus:border-indigo-400 ' +
                  (textError ? 'border-red-400' : 'border-zinc-200')
                }
              />
              <button
                type="button"
                data-testid={`${testId}-custom-add`}
                onClick={addText}
                className="h-7 rounded border border-zinc-300 px-2 text-[12px] text-zinc-700 hover:bg-zinc-50"
              >
                {t('add')}
              </button>
            </div>
          )}
          {textError && <p className="mt-1 text-[11px] text-red-600">{textError}</p>}
        </div>
      )}
    </div>
  );
}
