'use client';
/**
 * The home page: every workflow, searched by name or description, each with its latest run (workflow-row.tsx), and
 * create (from a template or blank, templates/), rename, duplicate (export + import), delete, import and export. An
 * import is a picked or dropped file: a PaiFlow, Dify or n8n export, told apart by its content (import-file.ts); a
 * Dify or n8n import shows its report (import-report-dialog.tsx). A viewer is offered only what a viewer may do
 * (open, export, search): the server would refuse the rest with 403.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { canEdit } from '@/components/api/auth-api';
import { api, errorMessage } from '@/components/api/client';
import type { WorkflowSummary } from '@/components/api/types';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { TopBar } from '@/components/ui/top-bar';
import { TemplateGallery } from './templates/template-gallery';
import { WorkflowRow } from './workflow-row';
import { IMPORT_ACCEPT, importRequestFor, type ImportReport } from './import-file';
import { ImportReportDialog } from './import-report-dialog';

interface Imported {
  id: string;
  name: string;
  problems: number;
  report: ImportReport;
}

/** How long typing may pause before the list is searched again. */
const SEARCH_DEBOUNCE_MS = 200;

export function WorkflowList() {
  const t = useTranslations('workflowList');
  const router = useRouter();
  const auth = useAuth();
  const editable = !auth || canEdit(auth.role);
  const [list, setList] = useState<WorkflowSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<WorkflowSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [galleryOpen, setGalleryOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const [imported, setImported] = useState<Imported | null>(null);
  const [dragging, setDragging] = useState(false);
  // Only the answer to the latest request is shown: an earlier search that answers late is dropped.
  const latest = useRef(0);
  const queryRef = useRef('');

  // The state is set when the answer arrives, never synchronously inside the effect below.
  const refresh = useCallback(() => {
    const ask = ++latest.current;
    const q = queryRef.current.trim();
    return api.listWorkflows(q).then(
      (workflows) => {
        if (ask !== latest.current) return;
        setList(workflows);
        setLoadError(null);
      },
      (e) => {
        if (ask === latest.current) setLoadError(errorMessage(e));
      },
    );
  }, []);
  useEffect(() => {
    queryRef.current = query;
    const timer = setTimeout(() => void refresh(), query ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [query, refresh]);

  const create = async () => {
    setBusy(true);
    try {
      // No name, no graph: the server makes Start → End under a name no other workflow has, in the UI's language.
      const wf = await api.createWorkflow({});
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
    const request = importRequestFor(await file.text());
    if (!request) {
      toast('error', t('toast.importFailed'), t('toast.unknownFile', { file: file.name }));
      return;
    }
    try {
      const wf = (await api.importWorkflow(request.body)) as Awaited<ReturnType<typeof api.importWorkflow>> & {
        importReport?: ImportReport;
      };
      const n = wf.problems?.length ?? 0;
      if (wf.importReport) {
        setImported({ id: wf.id, name: wf.name, problems: n, report: wf.importReport });
        await refresh();
        return;
      }
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

  const actions = {
    onRename: (wf: WorkflowSummary, name: string) => void rename(wf, name),
    onDuplicate: (wf: WorkflowSummary) => void duplicate(wf),
    onDelete: (wf: WorkflowSummary) => setConfirmDelete(wf),
  };
  const searching = query.trim() !== '';

  /** A file dragged over the page: only files, and only for someone who may import. */
  const dragsFile = (e: DragEvent) => editable && e.dataTransfer.types.includes('Files');

  return (
    <div
      className="relative flex min-h-full flex-col"
      data-testid="workflow-list-page"
      onDragOver={(e) => {
        if (!dragsFile(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target || !e.currentTarget.contains(e.relatedTarget as Node | null))
          setDragging(false);
      }}
      onDrop={(e) => {
        if (!dragsFile(e)) return;
        e.preventDefault();
        setDragging(false);
        const f = e.dataTransfer.files[0];
        if (f) void importFile(f);
      }}
    >
      {dragging && (
        <div
          className={
            'pointer-events-none fixed inset-3 z-40 flex items-center justify-center rounded-2xl border-2 ' +
            'border-dashed border-indigo-400 bg-indigo-50/80 text-base font-medium text-indigo-800'
          }
          data-testid="import-drop-zone"
        >
          {t('drop.hint')}
        </div>
      )}
      <TopBar
        right={
          <>
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
            <Link
              href="/datasets"
              className={
                'inline-flex h-8 items-center rounded-md px-3 text-sm ' +
                'font-medium text-zinc-300 hover:bg-zinc-800 hover:text-white'
              }
              data-testid="nav-datasets"
            >
              {t('nav.datasets')}
            </Link>
            {editable && (
              <>
                <input
                  ref={fileRef}
                  type="file"
                  accept={IMPORT_ACCEPT}
                  className="hidden"
                  data-testid="import-file"
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    e.target.value = '';
                    if (f) void importFile(f);
                  }}
                />
                <Button variant="dark" onClick={() => fileRef.current?.click()} data-testid="import-workflow">
                  {t('nav.import')}
                </Button>
                <Button
                  variant="primary"
                  onClick={() => setGalleryOpen(true)}
                  disabled={busy}
                  data-testid="new-workflow"
                >
                  {t('nav.newWorkflow')}
                </Button>
              </>
            )}
          </>
        }
      />
      <main className="mx-auto w-full max-w-5xl flex-1 px-6 py-8">
        <div className="mb-6 flex items-end justify-between gap-4">
          <div>
            <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              {t('title')}
              {!editable && (
                <span
                  className="rounded-full bg-zinc-100 px-2 py-0.5 text-[11px] font-medium text-zinc-600"
                  title={t('readOnlyTitle')}
                  data-testid="list-read-only-badge"
                >
                  {t('readOnly')}
                </span>
              )}
            </h1>
            <p className="mt-1 text-sm text-zinc-500">{t('subtitle')}</p>
          </div>
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('search.placeholder')}
            aria-label={t('search.label')}
            maxLength={200}
            data-testid="workflow-search"
            className={
              'h-8 w-64 rounded-md border border-zinc-300 bg-white px-2.5 text-sm outline-none ' +
              'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
            }
          />
        </div>
        {loadError && (
          <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800" role="alert">
            {t('loadFailed', { error: loadError })}
          </div>
        )}
        {list === null && !loadError && <div className="text-sm text-zinc-500">{t('loading')}</div>}
        {list?.length === 0 && !searching && (
          <div
            className="rounded-xl border border-dashed border-zinc-300 bg-white p-10 text-center text-sm text-zinc-500"
            data-testid="empty-list"
          >
            {editable ? t('empty') : t('emptyReadOnly')}
          </div>
        )}
        {list?.length === 0 && searching && (
          <div
            className="rounded-xl border border-dashed border-zinc-300 bg-white p-10 text-center text-sm text-zinc-500"
            data-testid="no-matches"
          >
            {t('search.noMatches', { query: query.trim() })}
          </div>
        )}
        {list && list.length > 0 && (
          <ul
            className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm"
            data-testid="workflow-list"
          >
            {list.map((wf) => (
              <WorkflowRow
                key={wf.id}
                wf={wf}
                editable={editable}
                renaming={renaming === wf.id}
                onStartRename={() => setRenaming(wf.id)}
                onCancelRename={() => setRenaming(null)}
                actions={actions}
              />
            ))}
          </ul>
        )}
      </main>
      {imported && (
        <ImportReportDialog
          name={imported.name}
          report={imported.report}
          problems={imported.problems}
          onClose={() => setImported(null)}
          onOpen={() => router.push(`/workflows/${imported.id}`)}
        />
      )}
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
