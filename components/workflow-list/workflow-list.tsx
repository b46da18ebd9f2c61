'use client';
/**
 * The home page: every workflow with create (from a template or blank, templates/), rename, duplicate (export +
 * import), delete, import and export.
 */
import Link from 'next/link';
import { useFormatter, useNow, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '@/components/api/client';
import type { WorkflowSummary } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { TopBar } from '@/components/ui/top-bar';
import { TemplateGallery } from './templates/template-gallery';

/** "just now", "5 minutes ago", "3 hours ago", else the date — in the UI's language. */
function useUpdatedAt(): (iso: string) => string {
  const t = useTranslations('workflowList.row');
  const format = useFormatter();
  // Re-rendered each minute, so "5 minutes ago" does not stay on screen for an hour.
  const now = useNow({ updateInterval: 60_000 });
  return (iso) => {
    const date = new Date(iso);
    const s = Math.round((now.getTime() - date.getTime()) / 1000);
    if (s < 60) return t('justNow');
    if (s < 3600) return format.relativeTime(date, { now, unit: 'minute' });
    if (s < 86400) return format.relativeTime(date, { now, unit: 'hour' });
    return format.dateTime(date, { dateStyle: 'medium' });
  };
}

export function WorkflowList() {
  const t = useTranslations('workflowList');
  const updatedAt = useUpdatedAt();
  const router = useRouter();
  const [list, setList] = useState<WorkflowSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<WorkflowSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [galleryOpen, setGalleryOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  // The state is set when the answer arrives, never synchronously inside the effect below.
  const refresh = useCallback(
    () =>
      api.listWorkflows().then(
        (workflows) => {
          setList(workflows);
          setLoadError(null);
        },
        (e) => setLoadError(errorMessage(e)),
      ),
    [],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const create = async () => {
    setBusy(true);
    try {
      const wf = await api.createWorkflow({ name: t('untitled'), graph: { nodes: [], edges: [] } });
      router.push(`/workflows/${wf.id}`);
    } catch (e) {
      toast('error', t('toast.createFailed'), errorMessage(e));
      setBusy(false);
    }
  };

  const rename = async (wf: WorkflowSummary, name: string) => {
    setRenaming(null);
    const trimmed = name.trim();
    if (!trimmed || trimmed === wf.name) return;
    try {
      await api.saveWorkflow(wf.id, { name: trimmed, revision: wf.revision });
      await refresh();
    } catch (e) {
      toast('error', t('toast.renameFailed'), errorMessage(e));
    }
  };

  const duplicate = async (wf: WorkflowSummary) => {
    try {
      const doc = await api.exportWorkflow(wf.id);
      const copy = await api.importWorkflow({
        ...doc,
        workflow: { ...doc.workflow, name: t('copyName', { name: doc.workflow.name }).slice(0, 200) },
      });
      toast('success', t('toast.duplicated', { name: copy.name }));
      await refresh();
    } catch (e) {
      toast('error', t('toast.duplicateFailed'), errorMessage(e));
    }
  };

  const remove = async (wf: WorkflowSummary) => {
    setConfirmDelete(null);
    try {
      await api.deleteWorkflow(wf.id);
      toast('success', t('toast.deleted', { name: wf.name }));
      await refresh();
    } catch (e) {
      toast('error', t('toast.deleteFailed'), errorMessage(e));
    }
  };

  const importFile = async (file: File) => {
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      toast('error', t('toast.importFailed'), t('toast.notJson', { file: file.name }));
      return;
    }
    try {
      const wf = await api.importWorkflow(doc);
      const n = wf.problems?.length ?? 0;
      toast(
        n ? 'warning' : 'success',
        t('toast.imported', { name: wf.name }),
        n ? t('toast.problems', { count: n }) : undefined,
      );
      await refresh();
    } catch (e) {
      toast('error', t('toast.importFailed'), errorMessage(e));
    }
  };

  return (
    <div className="flex min-h-full flex-col">
      <TopBar
        right={
          <>
            <input
              ref={fileRef}
              type="file"
              accept="application/json,.json"
              className="hidden"
              data-testid="import-file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                if (f) void importFile(f);
              }}
            />
            <Link
              href="/knowledge"
              className={
                'inline-flex h-8 items-center rounded-md px-3 text-sm ' +
                'font-medium text-zinc-300 hover:bg-zinc-800 hover:text-white'
              }
              data-testid="nav-knowledge"
            >
              {t('nav.knowledge')}
            </Link>
            <Button variant="dark" onClick={() => fileRef.current?.click()} data-testid="import-workflow">
              {t('nav.importJson')}
            </Button>
            <Button variant="primary" onClick={() => setGalleryOpen(true)} disabled={busy} data-testid="new-workflow">
              {t('nav.newWorkflow')}
            </Button>
          </>
        }
      />
      <main className="mx-auto w-full max-w-5xl flex-1 px-6 py-8">
        <div className="mb-6 flex items-end justify-between">
          <div>
            <h1 className="text-xl font-semibold tracking-tight">{t('title')}</h1>
            <p className="mt-1 text-sm text-zinc-500">{t('subtitle')}</p>
          </div>
        </div>
        {loadError && (
          <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800" role="alert">
            {t('loadFailed', { error: loadError })}
          </div>
        )}
        {list === null && !loadError && <div className="text-sm text-zinc-500">{t('loading')}</div>}
        {list?.length === 0 && (
          <div
            className="rounded-xl border border-dashed border-zinc-300 bg-white p-10 text-center text-sm text-zinc-500"
            data-testid="empty-list"
          >
            {t('empty')}
          </div>
        )}
        {list && list.length > 0 && (
          <ul
            className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm"
            data-testid="workflow-list"
          >
            {list.map((wf) => (
              <li
                key={wf.id}
                className="group flex items-center gap-4 px-5 py-4 hover:bg-zinc-50"
                data-testid="workflow-row"
                data-workflow-id={wf.id}
              >
                <div
                  className={
                    'grid h-9 w-9 shrink-0 place-items-center rounded-lg ' +
                    'bg-indigo-50 text-xs font-semibold text-indigo-700'
                  }
                >
                  {wf.nodeCount}
                </div>
                <div className="min-w-0 flex-1">
                  {renaming === wf.id ? (
                    <input
                      autoFocus
                      defaultValue={wf.name}
                      data-testid="rename-input"
                      aria-label={t('row.nameLabel')}
                      className={
                        'w-full rounded border border-indigo-400 px-2 ' +
                        'py-1 text-sm outline-none ring-2 ring-indigo-100'
                      }
                      onBlur={(e) => void rename(wf, e.target.value)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
                        if (e.key === 'Escape') setRenaming(null);
                      }}
                    />
                  ) : (
                    <Link
                      href={`/workflows/${wf.id}`}
                      className="block truncate text-sm font-medium text-zinc-900 hover:text-indigo-700"
                      data-testid="workflow-name"
                    >
                      {wf.name}
                    </Link>
                  )}
                  <div className="mt-0.5 truncate text-xs text-zinc-500">
                    {wf.description || t('row.noDescription')} · {t('row.nodes', { count: wf.nodeCount })} ·{' '}
                    {t('row.updated', { when: updatedAt(wf.updatedAt) })}
                  </div>
                </div>
                <div className="flex shrink-0 items-center gap-1 opacity-70 group-hover:opacity-100">
                  <Button size="sm" variant="ghost" onClick={() => setRenaming(wf.id)} data-testid="rename-workflow">
                    {t('row.rename')}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void duplicate(wf)} data-testid="duplicate-workflow">
                    {t('row.duplicate')}
                  </Button>
                  <a
                    href={`/api/workflows/${wf.id}/export`}
                    download
                    className={
                      'inline-flex h-7 items-center rounded-md px-2.5 text-xs ' +
                      'font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900'
                    }
                    data-testid="export-workflow"
                  >
                    {t('row.export')}
                  </a>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-600 hover:bg-red-50 hover:text-red-700"
                    onClick={() => setConfirmDelete(wf)}
                    data-testid="delete-workflow"
                  >
                    {t('row.delete')}
                  </Button>
                  <Link
                    href={`/workflows/${wf.id}`}
                    className={
                      'ml-1 inline-flex h-7 items-center rounded-md bg-zinc-900 ' +
                      'px-3 text-xs font-medium text-white hover:bg-zinc-700'
                    }
                    data-testid="open-workflow"
                  >
                    {t('row.open')}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </main>
      {galleryOpen && <TemplateGallery onClose={() => setGalleryOpen(false)} onBlank={create} blankBusy={busy} />}
      {confirmDelete && (
        <Modal
          title={t('confirmDelete.title')}
          onClose={() => setConfirmDelete(null)}
          testId="confirm-delete"
          footer={
            <>
              <Button onClick={() => setConfirmDelete(null)}>{t('confirmDelete.cancel')}</Button>
              <Button variant="danger" onClick={() => void remove(confirmDelete)} data-testid="confirm-delete-button">
                {t('confirmDelete.delete')}
              </Button>
            </>
          }
        >
          <p>{t('confirmDelete.body', { name: confirmDelete.name })}</p>
        </Modal>
      )}
    </div>
  );
}
