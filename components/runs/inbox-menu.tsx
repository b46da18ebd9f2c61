'use client';
/**
 * The inbox in the top bar: a badge with the number of runs waiting for an answer the signed-in user may give (a
 * human-input node, a tool call to approve, a breakpoint), shown only when there are some. It opens a list of them,
 * each opening its run in the editor (after switching workspace when the run is in another one), and a link to /runs
 * filtered to waiting runs.
 */
import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { authApi } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { toast } from '@/components/ui/toast';
import { useInbox, waitingRunHref, type WaitingRun } from './inbox-api';

const SHOWN = 10;

export function InboxMenu() {
  const auth = useAuth();
  if (!auth?.user) return null;
  return <SignedInInbox workspaceId={auth.workspaceId ?? null} />;
}

function SignedInInbox({ workspaceId }: { workspaceId: string | null }) {
  const t = useTranslations('runs.inbox');
  const inbox = useInbox({ limit: SHOWN });
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', esc);
    };
  }, [open]);

  if (!inbox?.count) return null;
  const label = t('button', { count: inbox.count });
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        data-testid="inbox-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        onClick={() => setOpen((o) => !o)}
        className={
          'flex h-7 items-center gap-1.5 rounded-md border border-amber-500/60 bg-amber-500/10 px-2 text-xs ' +
          'font-medium text-amber-200 hover:bg-amber-500/20'
        }
      >
        {t('title')}
        <span
          data-testid="inbox-count"
          className={
            'grid h-4 min-w-4 place-items-center rounded-full bg-amber-500 px-1 text-[10px] font-bold ' +
            'text-zinc-900'
          }
        >
          {inbox.count}
        </span>
      </button>
      {open && (
        <div
          role="menu"
          data-testid="inbox-menu"
          className={
            'absolute right-0 top-full z-50 mt-1 w-96 rounded-lg border border-zinc-200 bg-white py-2 text-sm ' +
            'text-zinc-800 shadow-xl'
          }
        >
          <div className="border-b border-zinc-100 px-3 pb-2 text-[12px] text-zinc-500">
            {t('intro', { count: inbox.count })}
          </div>
          <ul className="max-h-96 overflow-y-auto">
            {inbox.runs.map((r) => (
              <InboxItem key={r.id} run={r} here={r.workspaceId === workspaceId} />
            ))}
          </ul>
          <Link
            href="/runs?status=waiting"
            role="menuitem"
            data-testid="inbox-all"
            className="block border-t border-zinc-100 px-3 pt-2 text-[13px] font-medium text-indigo-600 hover:underline"
          >
            {inbox.count > inbox.runs.length ? t('allMore', { count: inbox.count - inbox.runs.length }) : t('all')}
          </Link>
        </div>
      )}
    </div>
  );
}

/** What the run waits on, in words. */
export function useWaitingText() {
  const t = useTranslations('runs.inbox');
  return (r: WaitingRun) => {
    const node = r.node?.label || r.node?.id || '';
    switch (r.kind) {
      case 'human_input':
        return r.detail ? t('kind.humanInputPrompt', { node, prompt: r.detail }) : t('kind.humanInput', { node });
      case 'tool_approval':
        return t('kind.toolApproval', { node, tool: r.detail ?? '' });
      case 'breakpoint':
        return t('kind.breakpoint', { node });
      default:
        return t('kind.other', { node });
    }
  };
}

function InboxItem({ run: r, here }: { run: WaitingRun; here: boolean }) {
  const t = useTranslations('runs.inbox');
  const format = useFormatter();
  const what = useWaitingText()(r);
  const href = waitingRunHref(r);
  const since = r.waitingSince ?? r.createdAt;
  // A run of another workspace opens after switching to it (the editor loads workflows of the current workspace).
  const openElsewhere = async (e: React.MouseEvent) => {
    e.preventDefault();
    try {
      await authApi.switchWorkspace(r.workspaceId);
      window.location.assign(href);
    } catch (err) {
      toast('error', t('switchFailed'), errorMessage(err));
    }
  };
  return (
    <li>
      <a
        href={href}
        role="menuitem"
        data-testid="inbox-item"
        data-run-id={r.id}
        onClick={here ? undefined : (e) => void openElsewhere(e)}
        className="block px-3 py-2 hover:bg-zinc-50"
      >
        <span className="flex items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate font-medium text-zinc-900">{r.workflowName}</span>
          <time className="shrink-0 text-[11px] text-zinc-500" dateTime={since} title={since}>
            {format.relativeTime(new Date(since))}
          </time>
        </span>
        <span className="block truncate text-[12px] text-zinc-600" title={what}>
          {what}
        </span>
        {!here && r.workspaceName && (
          <span className="block text-[11px] text-zinc-400">{t('inWorkspace', { name: r.workspaceName })}</span>
        )}
      </a>
    </li>
  );
}
