'use client';
/**
 * The Triggers drawer: the workflow's webhooks and schedules, each with its on/off switch, last run and last error,
 * and a form to create or change one. Triggers run the published version, so the drawer says when there is none.
 * A webhook's secret is held here only while its form is open, right after the answer that made it (the API never
 * shows it again). The list re-reads itself every few seconds while open, so runs started from outside appear.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { canAdmin } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { Drawer } from '@/components/ui/drawer';
import { toast } from '@/components/ui/toast';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { toGraph } from '../graph-model';
import { publishApi } from '../publish/publish-api';
import { InlineError } from '../publish/publish-ui';
import { ScheduleForm } from './schedule-form';
import { startInputs } from './trigger-helpers';
import { displayName, TriggerRow } from './trigger-row';
import { triggersApi, type TriggerView } from './triggers-api';
import { WebhookForm } from './webhook-form';
import { WebhookUsage } from './webhook-usage';

const REFRESH_MS = 5_000;

type View = { kind: 'list' } | { kind: 'new'; type: TriggerView['type'] } | { kind: 'edit'; id: string };

const selectNodes = (s: EditorState) => s.nodes;

export function TriggersPanel({ onClose }: { onClose: () => void }) {
  const msg = useTranslations('triggers.panel');
  const rowMsg = useTranslations('triggers.row');
  const nameOf = (t: TriggerView) => displayName(t, rowMsg);
  const { editor } = useEditorContext();
  const workflowId = editor.state.workflowId;
  const nodes = useEditorState(selectNodes);
  // The draft's Start node: what the mapping rows and the sample payloads are made from (edges play no part).
  const graph = useMemo(() => toGraph(nodes, []), [nodes]);
  const inputs = useMemo(() => startInputs(graph), [graph]);
  const auth = useAuth();
  // Webhooks start runs as an API key does: the API lets only admins create or change them.
  const isAdmin = canAdmin(auth?.role);

  const [triggers, setTriggers] = useState<TriggerView[] | null>(null);
  const [published, setPublished] = useState<boolean | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [rowError, setRowError] = useState<unknown>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [shown, setShown] = useState<{ id: string; secret: string } | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);

  // Bumped by every change made here: a list read that started before it is stale and dropped.
  const generation = useRef(0);
  const load = useCallback(() => {
    const started = generation.current;
    return Promise.all([triggersApi.list(workflowId), publishApi.status(workflowId)]).then(
      ([list, status]) => {
        if (started !== generation.current) return;
        setTriggers(list);
        setPublished(status.published);
        setLoadError(null);
        setRefreshKey((k) => k + 1);
      },
      (e: unknown) => setLoadError(e),
    );
  }, [workflowId]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const saved = ({ secret, ...t }: TriggerView) => {
    generation.current++;
    setTriggers((list) =>
      list?.some((x) => x.id === t.id) ? list.map((x) => (x.id === t.id ? t : x)) : [...(list ?? []), t],
    );
    if (secret) setShown({ id: t.id, secret });
    setView({ kind: 'edit', id: t.id });
    toast('success', view.kind === 'new' ? msg('created', { name: nameOf(t) }) : msg('saved', { name: nameOf(t) }));
  };

  const toggle = async (t: TriggerView, enabled: boolean) => {
    setBusyId(t.id);
    setRowError(null);
    try {
      const next = await triggersApi.update(workflowId, t.id, { enabled });
      generation.current++;
      setTriggers((list) => list?.map((x) => (x.id === t.id ? next : x)) ?? list);
    } catch (e) {
      setRowError(e);
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (t: TriggerView) => {
    setRowError(null);
    try {
      await triggersApi.remove(workflowId, t.id);
      generation.current++;
      setTriggers((list) => list?.filter((x) => x.id !== t.id) ?? list);
      toast('info', msg('deleted', { name: nameOf(t) }));
    } catch (e) {
      setRowError(e);
    }
  };

  const backToList = () => {
    setShown(null);
    setView({ kind: 'list' });
  };

  const editing = view.kind === 'edit' ? triggers?.find((t) => t.id === view.id) : undefined;
  const formType = view.kind === 'new' ? view.type : editing?.type;
  const formReadOnly = editor.readOnly || (formType === 'webhook' && !isAdmin);
  // A new key after every save, so the form starts again from what the server stored.
  const formKey = editing ? `${editing.id}:${editing.updatedAt}` : 'new';
  const formProps = { workflowId, trigger: editing, inputs, readOnly: formReadOnly, onSaved: saved };

  return (
    <Drawer
      label={msg('title')}
      title={msg('title')}
      subtitle={editor.state.name || msg('untitled')}
      testId="triggers-panel"
      closeTestId="triggers-close"
      loaded={triggers !== null}
      widthClass="w-[36rem]"
      actions={
        <Button size="sm" variant="ghost" onClick={() => void load()} data-testid="triggers-refresh">
          {msg('refresh')}
        </Button>
      }
      onClose={onClose}
    >
      <PublishedNote published={published} />
      {loadError != null && (
        <div
          role="alert"
          data-testid="triggers-load-error"
          className="m-5 rounded-md border border-red-200 bg-red-50 p-3 text-[12px] text-red-800"
        >
          {msg('loadError', { message: errorMessage(loadError) })}
        </div>
      )}
      {triggers === null && loadError == null && (
        <div className="px-5 py-8 text-center text-[12px] text-zinc-500">{msg('loading')}</div>
      )}
      {triggers !== null && view.kind === 'list' && (
        <div className="px-5 py-4">
          <div className="mb-3 flex items-center gap-2">
            <Button
              size="sm"
              variant="primary"
              disabled={editor.readOnly || !isAdmin}
              title={isAdmin ? undefined : msg('onlyAdminsCreate')}
              onClick={() => setView({ kind: 'new', type: 'webhook' })}
            >
              {msg('newWebhook')}
            </Button>
            <Button
              size="sm"
              variant="primary"
              disabled={editor.readOnly}
              onClick={() => setView({ kind: 'new', type: 'schedule' })}
            >
              {msg('newSchedule')}
            </Button>
          </div>
          <InlineError error={rowError} testId="triggers-row-error" />
          {triggers.length === 0 ? (
            <p className="text-[12px] text-zinc-500" data-testid="triggers-empty">
              {msg('empty')}
            </p>
          ) : (
            <ul className="mt-2 space-y-1.5" aria-label={msg('listAria')} data-testid="triggers-list">
              {triggers.map((t) => (
                <TriggerRow
                  key={t.id}
                  t={t}
                  refreshKey={refreshKey}
                  readOnly={editor.readOnly || (t.type === 'webhook' && !isAdmin)}
                  busy={busyId === t.id}
                  onToggle={(enabled) => void toggle(t, enabled)}
                  onEdit={() => setView({ kind: 'edit', id: t.id })}
                  onDelete={() => remove(t)}
                />
              ))}
            </ul>
          )}
        </div>
      )}
      {triggers !== null && view.kind !== 'list' && (
        <>
          <div className="flex items-center gap-2 border-b border-zinc-200 px-5 py-2">
            <Button size="sm" variant="ghost" onClick={backToList}>
              {msg('allTriggers')}
            </Button>
            <h3 className="min-w-0 flex-1 truncate text-[12px] font-semibold text-zinc-800">
              {view.kind === 'new'
                ? view.type === 'webhook'
                  ? msg('newWebhook')
                  : msg('newSchedule')
                : editing
                  ? nameOf(editing)
                  : msg('notFound')}
            </h3>
          </div>
          {formReadOnly && formType === 'webhook' && !editor.readOnly && (
            <p className="mx-5 mt-3 text-[12px] text-amber-800">{msg('onlyAdminsChange')}</p>
          )}
          {formType === 'webhook' && <WebhookForm key={formKey} {...formProps} />}
          {formType === 'schedule' && <ScheduleForm key={formKey} {...formProps} refreshKey={refreshKey} />}
          {editing?.type === 'webhook' && (
            <WebhookUsage
              key={editing.id}
              trigger={editing}
              // Not after a switch to no authentication: that secret is gone.
              secret={shown?.id === editing.id && editing.auth?.hasSecret ? shown.secret : null}
              graph={graph}
              refreshKey={refreshKey}
            />
          )}
        </>
      )}
    </Drawer>
  );
}

/** Triggers run the published version: said always, warned when there is none. */
function PublishedNote({ published }: { published: boolean | null }) {
  const msg = useTranslations('triggers.panel');
  return (
    <div className="border-b border-zinc-200 px-5 py-3 text-[12px]" data-testid="triggers-published-note">
      <p className="text-zinc-600">{msg.rich('publishedNote', { b: (c) => <b>{c}</b> })}</p>
      {published === false && (
        <p
          role="alert"
          data-testid="triggers-unpublished"
          className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-amber-900"
        >
          {msg('unpublished')}
        </p>
      )}
    </div>
  );
}
