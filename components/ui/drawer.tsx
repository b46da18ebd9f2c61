'use client';
/**
 * A right-hand drawer over the page and the top-bar button that opens it (the editor's Publish and Triggers).
 * The drawer closes on Escape anywhere and on a click on the dimmed backdrop; keys typed inside it stay inside, so a
 * canvas behind it does not act on Delete/Backspace. The button portals the drawer to <body>, so the drawer
 * inherits neither the dark top bar's colours nor its stacking.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button';

/** A dark top-bar button; `drawer(close)` is rendered, portalled, while it is open. */
export function DrawerButton({
  label,
  title,
  testId,
  disabled,
  drawer,
}: {
  label: string;
  title: string;
  testId: string;
  disabled?: boolean;
  drawer: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <Button
        variant="dark"
        size="sm"
        onClick={() => setOpen(true)}
        disabled={disabled}
        data-testid={testId}
        title={title}
      >
        {label}
      </Button>
      {open && createPortal(drawer(close), document.body)}
    </>
  );
}

export function Drawer({
  label,
  title,
  subtitle,
  testId,
  closeTestId,
  loaded,
  widthClass,
  actions,
  onClose,
  children,
}: {
  /** The dialog's accessible name. */
  label: string;
  title: string;
  /** A line under the title (e.g. the workflow's name). */
  subtitle?: ReactNode;
  testId: string;
  closeTestId: string;
  /** `data-loaded`, for tests that wait for the first answer. */
  loaded?: boolean;
  /** A Tailwind width class, e.g. `w-[36rem]` (the drawer never exceeds the viewport). */
  widthClass: string;
  /** Buttons beside the close button. */
  actions?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const tc = useTranslations('common');
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div
      className="fixed inset-0 z-50 flex justify-end bg-zinc-950/30"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        data-loaded={loaded}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
            return;
          }
          // Keep Delete/Backspace and friends from reaching the canvas behind the drawer.
          if (!e.ctrlKey && !e.metaKey) e.stopPropagation();
        }}
        className={
          `flex h-full ${widthClass} max-w-full flex-col border-l border-zinc-200 bg-white text-zinc-900 ` +
          'shadow-2xl'
        }
      >
        <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-5 py-3">
          <div className="min-w-0">
            <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
            {subtitle != null && <p className="truncate text-[11px] text-zinc-500">{subtitle}</p>}
          </div>
          <div className="flex items-center gap-1">
            {actions}
            <button
              type="button"
              className="px-1 text-zinc-400 hover:text-zinc-700"
              onClick={onClose}
              aria-label={tc('close')}
              data-testid={closeTestId}
              autoFocus
            >
              ✕
            </button>
          </div>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto text-sm">{children}</div>
      </div>
    </div>
  );
}
