'use client';
/** App-wide toasts. `toast()` can be called from anywhere (stores, event handlers); <Toaster/> renders them. */
import { useTranslations } from 'next-intl';
import { createStore, useStoreSelector } from '@/components/lib/external-store';

export type ToastKind = 'info' | 'success' | 'error' | 'warning';
interface ToastItem {
  id: number;
  kind: ToastKind;
  title: string;
  detail?: string;
}

const toasts = createStore<ToastItem[]>([]);
let nextId = 1;

export function toast(kind: ToastKind, title: string, detail?: string, ms = kind === 'error' ? 7000 : 4000) {
  const id = nextId++;
  toasts.set((list) => [...list.slice(-4), { id, kind, title, detail }]);
  setTimeout(() => dismiss(id), ms);
  return id;
}

function dismiss(id: number) {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

const STYLE: Record<ToastKind, string> = {
  info: 'border-zinc-300 bg-white text-zinc-800',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-900',
};

const selectAll = (l: ToastItem[]) => l;

export function Toaster() {
  const list = useStoreSelector(toasts, selectAll);
  const tc = useTranslations('common');
  return (
    <div
      className={
        'pointer-events-none fixed bottom-4 left-1/2 z-[100] flex ' +
        'w-[28rem] max-w-[90vw] -translate-x-1/2 flex-col gap-2'
      }
      aria-live="polite"
    >
      {list.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          data-kind={t.kind}
          className={
            'pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ' + STYLE[t.kind]
          }
        >
          <div className="min-w-0 flex-1">
            <div className="font-medium">{t.title}</div>
            {t.detail && <div className="mt-0.5 break-words text-xs opacity-80">{t.detail}</div>}
          </div>
          <button
            type="button"
            className="text-xs opacity-60 hover:opacity-100"
            onClick={() => dismiss(t.id)}
            aria-label={tc('dismiss')}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
