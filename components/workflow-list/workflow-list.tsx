'use client';
/**
 * The home page: every workflow with create (from a template or blank, templates/), rename, duplicate (export +
 * import), delete, import and export.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '@/components/api/client';
import type { WorkflowSummary } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { TopBar } from '@/components/ui/top-bar';
import { TemplateGallery } from './templates/template-gallery';

const pluralS = (n: number) => (n === 1 ? '' : 's');

function relativeTime(iso: string): string {
  const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function WorkflowList() {
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
      const wf = await api.createWorkflow({ name: 'Untitled workflow', graph: { nodes: [], edges: [] } });
      router.push(`/workflows/${wf.id}`);
    } catch (e) {
      toast('error', 'Could not create the workflow', errorMessage(e));
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
      toast('error', 'Rename failed', errorMessage(e));
    }
  };

  const duplicate = async (wf: WorkflowSummary) => {
    try {
      const doc = await api.exportWorkflow(wf.id);
      const copy = await api.importWorkflow({
        ...doc,
        workflow: { ...doc.workflow, name: `${doc.workflow.name} (copy)`.slice(0, 200) },
      });
      toast('success', `Duplicated as “${copy.name}”`);
      await refresh();
    } catch (e) {
      toast('error', 'Duplicate failed', errorMessage(e));
    }
  };

  const remove = async (wf: WorkflowSummary) => {
    setConfirmDelete(null);
    try {
      await api.deleteWorkflow(wf.id);
      toast('success', `Deleted “${wf.name}”`);
      await refresh();
    } catch (e) {
      toast('error', 'Delete failed', errorMessage(e));
    }
  };

  const importFile = async (file: File) => {
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      toast('error', 'Import failed', `${file.name} is not a JSON file`);
      return;
    }
    try {
      const wf = await api.importWorkflow(doc);
      const n = wf.problems?.length ?? 0;
      toast(
        n ? 'warning' : 'success',
        `Imported “${wf.name}”`,
        n ? `${n} problem${n > 1 ? 's' : ''} to fix before it can run` : undefined,
      );
      await refresh();
    } catch (e) {
      toast('error', 'Import failed', errorMessage(e));
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
              Knowledge bases
            </Link>
            <Button variant="dark" onClick={() => fileRef.current?.click()} data-testid="import-workflow">
              Import JSON
            </Button>
            <Button variant="primary" onClick={() => setGalleryOpen(true)} disabled={busy} data-testid="new-workflow">
              New workflow
            </Button>
          </>
        }
      />
      <main className="mx-auto w-full max-w-5xl flex-1 px-6 py-8">
        <div className="mb-6 flex items-end justify-between">
          <div>
            <h1 className="text-xl font-semibold tracking-tight">Workflows</h1>
            <p className="mt-1 text-sm text-zinc-500">Build, run and trace AI workflows.</p>
          </div>
        </div>
        {loadError && (
          <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800" role="alert">
            Could not load workflows: {loadError}
          </div>
        )}
        {list === null && !loadError && <div className="text-sm text-zinc-500">Loading…</div>}
        {list?.length === 0 && (
          <div
            className="rounded-xl border border-dashed border-zinc-300 bg-white p-10 text-center text-sm text-zinc-500"
            data-testid="empty-list"
          >
            No workflows yet. Create one or import a JSON export.
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
                      aria-label="Workflow name"
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
                    {wf.description || 'No description'} · {wf.nodeCount} node{pluralS(wf.nodeCount)} · updated{' '}
                    {relativeTime(wf.updatedAt)}
                  </div>
                </div>
                <div className="flex shrink-0 items-center gap-1 opacity-70 group-hover:opacity-100">
                  <Button size="sm" variant="ghost" onClick={() => setRenaming(wf.id)} data-testid="rename-workflow">
                    Rename
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void duplicate(wf)} data-testid="duplicate-workflow">
                    Duplicate
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
                    Export
                  </a>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-600 hover:bg-red-50 hover:text-red-700"
                    onClick={() => setConfirmDelete(wf)}
                    data-testid="delete-workflow"
                  >
                    Delete
                  </Button>
                  <Link
                    href={`/workflows/${wf.id}`}
                    className={
                      'ml-1 inline-flex h-7 items-center rounded-md bg-zinc-900 ' +
                      'px-3 text-xs font-medium text-white hover:bg-zinc-700'
                    }
                    data-testid="open-workflow"
                  >
                    Open
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
          title="Delete workflow?"
          onClose={() => setConfirmDelete(null)}
          testId="confirm-delete"
          footer={
            <>
              <Button onClick={() => setConfirmDelete(null)}>Cancel</Button>
              <Button variant="danger" onClick={() => void remove(confirmDelete)} data-testid="confirm-delete-button">
                Delete
              </Button>
            </>
          }
        >
          <p>“{confirmDelete.name}” and its run history will be deleted. This cannot be undone.</p>
        </Modal>
      )}
    </div>
  );
}
