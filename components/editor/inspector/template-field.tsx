'use client';
/**
 * A text input / textarea that offers references after `{{`: `inputs.<name>` from the start node and
 * `<upstreamNodeId>.output…` for nodes upstream of the one being edited.
 */
import { useRef, useState, type KeyboardEvent } from 'react';

interface OpenRef {
  from: number;
  prefix: string;
}

/** Finds an unclosed `{{` before the caret; `from` is where the reference being typed starts. */
export function openRefAt(text: string, caret: number): OpenRef | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.indexOf('}}', open) >= 0) return null;
  const inside = before.slice(open + 2);
  const bar = inside.lastIndexOf('||');
  const partStart = bar >= 0 ? bar + 2 : 0;
  const part = inside.slice(partStart);
  const lead = part.length - part.trimStart().length;
  const prefix = part.trimStart();
  if (!/^[A-Za-z0-9_.\-[\]"']*$/.test(prefix)) return null;
  return { from: open + 2 + partStart + lead, prefix };
}

export interface TemplateFieldProps {
  value: string;
  onChange: (v: string) => void;
  /** Called when `{{` is typed, so the list is always current. */
  suggestions: () => string[];
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  invalid?: boolean;
  testId?: string;
  ariaLabel?: string;
  mono?: boolean;
}

export function TemplateField({
  value,
  onChange,
  suggestions,
  multiline,
  rows = 3,
  placeholder,
  invalid,
  testId,
  ariaLabel,
  mono,
}: TemplateFieldProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [open, setOpen] = useState<OpenRef | null>(null);
  const [active, setActive] = useState(0);

  const q = open?.prefix.toLowerCase() ?? '';
  const all = open ? suggestions() : [];
  const matches = open
    ? [
        ...all.filter((s) => s.toLowerCase().startsWith(q)),
        ...all.filter((s) => !s.toLowerCase().startsWith(q) && s.toLowerCase().includes(q)),
      ].slice(0, 12)
    : [];

  const refresh = (text: string) => {
    const el = ref.current;
    const caret = el?.selectionStart ?? text.length;
    const next = openRefAt(text, caret);
    setOpen(next);
    setActive(0);
  };

  const accept = (s: string) => {
    const el = ref.current;
    if (!el || !open) return;
    const caret = el.selectionStart ?? value.length;
    const after = value.slice(caret);
    const closing = /^\s*\}\}/.test(after) ? '' : '}}';
    const next = value.slice(0, open.from) + s + closing + after;
    onChange(next);
    setOpen(null);
    const pos = open.from + s.length + closing.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(pos, pos);
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!open || !matches.length) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => (a + 1) % matches.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a - 1 + matches.length) % matches.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      accept(matches[Math.min(active, matches.length - 1)]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(null);
    }
  };

  const cls =
    'w-full rounded-md border bg-white px-2.5 py-1.5 text-[13px] outline-none focus:ring-2 ' +
    `${mono ? 'font-mono text-[12px]' : ''} ` +
    (invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-100'
      : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100');
  const common = {
    ref,
    value,
    placeholder,
    'aria-label': ariaLabel,
    'aria-invalid': invalid || undefined,
    'data-testid': testId,
    className: cls,
    spellCheck: false,
    onChange: (e: { target: { value: string } }) => {
      onChange(e.target.value);
      refresh(e.target.value);
    },
    onKeyDown,
    onKeyUp: (e: KeyboardEvent) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) refresh(value);
    },
    onClick: () => refresh(value),
    onBlur: () => setTimeout(() => setOpen(null), 120),
  };

  return (
    <div className="relative">
      {multiline ? (
        <textarea rows={rows} {...common} className={`${cls} resize-y leading-snug`} />
      ) : (
        <input type="text" {...common} />
      )}
      {open && matches.length > 0 && (
        <ul
          role="listbox"
          data-testid="autocomplete"
          className={
            'absolute left-0 right-0 top-full z-30 mt-1 max-h-56 overflow-y-auto ' +
            'rounded-md border border-zinc-200 bg-white py-1 shadow-lg'
          }
        >
          {matches.map((s, i) => (
            <li
              key={s}
              role="option"
              aria-selected={i === active}
              data-testid="autocomplete-item"
              onMouseDown={(e) => {
                e.preventDefault();
                accept(s);
              }}
              onMouseEnter={() => setActive(i)}
              className={
                'cursor-pointer px-2.5 py-1 font-mono text-[12px] ' +
                (i === active ? 'bg-indigo-50 text-indigo-800' : 'text-zinc-700')
              }
            >
              {`{{${s}}}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
