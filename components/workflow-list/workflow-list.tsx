'use client';
/**
 * The home page: every workflow, searched by name or description, each with its latest run (workflow-row.tsx), and
 * create (from a template or blank, templates/), rename, duplicate (export + import), delete, import and export. A
 * viewer is offered only what a viewer may do (open, export, search): the server would refuse the rest with 403.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
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

  const actions = {
    onRename: (wf: WorkflowSummary, name: string) => void rename(wf, name),
    onDuplicate: (wf: WorkflowSummary) => void duplicate(wf),
    onDelete: (wf: WorkflowSummary) => setConfirmDelete(wf),
  };
  const searching = query.trim() !== '';

  return (
    <div className="flex min-h-full flex-col">
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
            {editable && (
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
                <Button variant="dark" onClick={() => fileRef.current?.click()} data-testid="import-workflow">
                  {t('nav.importJson')}
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
