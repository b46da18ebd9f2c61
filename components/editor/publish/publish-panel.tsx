'use client';
/**
 * The publish drawer: endpoint status and publishing, versions with rollback, API keys, CORS origins, trace sharing,
 * the MCP opt-in and ready-made calls. Opening it saves the draft first, so versions' "draft changes" compare
 * against what the editor shows.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import type { Graph } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { useAuth } from '@/components/auth/auth-gate';
import { useEditorContext } from '../editor-context';
import { endOutputs } from '../evaluate/end-outputs';
import { ApiKeysSection } from './api-keys-section';
import { CorsSection } from './cors-section';
import { TraceSharingSection } from './trace-sharing-section';
import { EndpointSection } from './endpoint-section';
import { GateRefusalBox, gateRefusalOf } from './gate-refusal';
import { GateSection } from './gate-section';
import { McpSection } from './mcp-section';
import { ChatSection } from './chat-section';
import { CallbackSigningSection } from './callback-signing-section';
import { publishApi, type ApiKeyInfo, type NewApiKey, type PublishStatus, type VersionInfo } from './publish-api';
import { sampleInputs } from './snippets';
import { UsageSection } from './usage-section';
import { VersionsSection } from './versions-section';

interface Loaded {
  status: PublishStatus;
  versions: VersionInfo[];
  keys: ApiKeyInfo[];
}

export function PublishPanel({ onClose }: { onClose: () => void }) {
  const t = useTranslations('publish.panel');
  const { editor } = useEditorContext();
  const workflowId = editor.state.workflowId;
  const [data, setData] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [publishing, setPublishing] = useState(false);
  const [publishError, setPublishError] = useState<unknown>(null);
  const [rollingBack, setRollingBack] = useState<number | null>(null);
  const [versionsError, setVersionsError] = useState<unknown>(null);
  const [creatingKey, setCreatingKey] = useState(false);
  const [keysError, setKeysError] = useState<unknown>(null);
  /** The key created while the panel is open: shown once, and used in the snippets. */
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const [createdShown, setCreatedShown] = useState(false);
  const [versionGraph, setVersionGraph] = useState<Graph | null>(null);

  // Escape closes the drawer even when focus is not inside it (keys inside are handled, and stopped, below).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const load = useCallback(async () => {
    const [status, versions, keys] = await Promise.all([
      publishApi.status(workflowId),
      publishApi.versions(workflowId),
      publishApi.keys(workflowId),
    ]);
    setData({ status, versions, keys });
  }, [workflowId]);

  const reload = useCallback(async () => {
    try {
      await load();
      setLoadError(null);
    } catch (e) {
      setLoadError(e);
    }
  }, [load]);

  useEffect(() => {
    // Save first so the versions' draftChanges describe the draft the editor shows (a failed save is shown in the top
    // bar).
    void editor.save().finally(() => void reload());
  }, [editor, reload]);

  // The endpoint runs the current version, so its start node (not the draft's) decides the snippets' inputs.
  const currentVersion = data?.status.published ? data.status.version : null;
  // Unpublished: no version graph. Adjusted while rendering, as React recommends for state that follows another state.
  const [graphFor, setGraphFor] = useState<number | null>(null);
  if (graphFor !== currentVersion) {
    setGraphFor(currentVersion);
    if (currentVersion === null) setVersionGraph(null);
  }
  useEffect(() => {
    if (currentVersion === null) return;
    let cancelled = false;
    publishApi
      .version(workflowId, currentVersion)
      .then((v) => {
        if (!cancelled) setVersionGraph(v.graph);
      })
      .catch(() => {
        if (!cancelled) setVersionGraph(null);
      });
    return () => {
      cancelled = true;
    };
  }, [workflowId, currentVersion]);

  const publish = async (slug?: string, force?: boolean) => {
    setPublishing(true);
    setPublishError(null);
    try {
      if (!(await editor.save({ manual: true })))
        throw new Error(t('saveFailed', { reason: editor.state.saveMessage ?? t('seeTopBar') }));
      const status = await publishApi.publish(workflowId, slug, force);
      toast('success', t('published', { version: String(status.version ?? '') }));
      await load();
    } catch (e) {
      setPublishError(e);
    } finally {
      setPublishing(false);
    }
  };

  const unpublish = async () => {
    setPublishError(null);
    try {
      await publishApi.unpublish(workflowId);
      toast('info', t('unpublished'), t('unpublishedDetail'));
      await load();
    } catch (e) {
      setPublishError(e);
    }
  };

  const rollback = async (version: number) => {
    setRollingBack(version);
    setVersionsError(null);
    try {
      await publishApi.rollback(workflowId, version);
      toast('success', t('versionCurrent', { version: String(version) }));
      await load();
    } catch (e) {
      setVersionsError(e);
    } finally {
      setRollingBack(null);
    }
  };

  const createKey = async (name: string): Promise<boolean> => {
    setCreatingKey(true);
    setKeysError(null);
    try {
      const key = await publishApi.createKey(workflowId, name || undefined);
      setCreated(key);
      setCreatedShown(true);
      setData((d) => (d ? { ...d, keys: [key, ...d.keys.filter((k) => k.id !== key.id)] } : d));
      return true;
    } catch (e) {
      setKeysError(e);
      return false;
    } finally {
      setCreatingKey(false);
    }
  };

  const revokeKey = async (id: string) => {
    setKeysError(null);
    try {
      const revoked = await publishApi.revokeKey(id);
      setData((d) => (d ? { ...d, keys: d.keys.map((k) => (k.id === id ? { ...k, ...revoked } : k)) } : d));
      if (created?.id === id) {
        setCreated(null);
        setCreatedShown(false);
      }
      toast('info', t('keyRevoked'));
    } catch (e) {
      setKeysError(e);
    }
  };

  const nodeLabel = useCallback(
    (id: string) => {
      const label = editor.state.nodes.find((n) => n.id === id)?.data.label;
      return typeof label === 'string' && label && label !== id ? `${label} (${id})` : id;
    },
    [editor],
  );

  const inputs = useMemo(() => sampleInputs(versionGraph ?? editor.graph()), [versionGraph, editor]);
  const outputs = useMemo(() => endOutputs(editor.state.nodes), [editor]);
  const auth = useAuth();
  const refusal = gateRefusalOf(publishError);
  const current = data?.versions.find((v) => v.current);

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
        aria-label={t('ariaLabel')}
        data-testid="publish-panel"
        data-loaded={!!data}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
            return;
          }
          // Keep Delete/Backspace and friends from reaching the canvas behind the drawer.
          if (!e.ctrlKey && !e.metaKey) e.stopPropagation();
        }}
        className="flex h-full w-[34rem] max-w-full flex-col border-l border-zinc-200 bg-white text-zinc-900 shadow-2xl"
      >
        <div className="flex items-center justify-between border-b border-zinc-200 px-5 py-3">
          <div className="min-w-0">
            <h2 className="text-sm font-semibold text-zinc-900">{t('heading')}</h2>
            <p className="truncate text-[11px] text-zinc-500">{editor.state.name || t('untitled')}</p>
          </div>
          <button
            type="button"
            className="text-zinc-400 hover:text-zinc-700"
            onClick={onClose}
            aria-label={t('close')}
            data-testid="publish-close"
            autoFocus
          >
            ✕
          </button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto text-sm">
          {!data && !loadError && (
            <div className="px-5 py-8 text-center text-[12px] text-zinc-500" data-testid="publish-loading">
              {t('loading')}
            </div>
          )}
          {loadError != null && (
            <div
              role="alert"
              data-testid="publish-load-error"
              className="m-5 rounded-md border border-red-200 bg-red-50 p-3 text-[12px] text-red-800"
            >
              {t('loadError', { message: errorMessage(loadError) })}
              <Button size="sm" className="ml-2" onClick={() => void reload()}>
                {t('retry')}
              </Button>
            </div>
          )}
          {data && (
            <>
              <EndpointSection
                status={data.status}
                busy={publishing}
                error={refusal ? null : publishError}
                onPublish={(slug) => void publish(slug)}
                onUnpublish={unpublish}
                draftUnchanged={current ? current.draftChanges.same : null}
              >
                {publishing && data.status.gate && (
                  <p className="mt-2 text-[12px] text-zinc-600" data-testid="publish-gate-evaluating">
                    {t('gateEvaluating')}
                  </p>
                )}
                {refusal && (
                  <GateRefusalBox
                    refusal={refusal}
                    canForce={auth?.role === 'owner'}
                    onForce={() => publish(undefined, true)}
                  />
                )}
              </EndpointSection>
              <GateSection
                key={JSON.stringify(data.status.gate ?? null)}
                workflowId={workflowId}
                status={data.status}
                outputs={outputs}
                readOnly={editor.readOnly}
                onSaved={(status) => setData((d) => (d ? { ...d, status: { ...d.status, ...status } } : d))}
              />
              <VersionsSection
                versions={data.versions}
                rollingBack={rollingBack}
                error={versionsError}
                onRollback={(v) => void rollback(v)}
                nodeLabel={nodeLabel}
              />
              <ApiKeysSection
                keys={data.keys}
                created={createdShown ? created : null}
                creating={creatingKey}
                error={keysError}
                onCreate={createKey}
                onRevoke={revokeKey}
                onDismissCreated={() => setCreatedShown(false)}
              />
              <CorsSection
                key={JSON.stringify(data.status.corsOrigins ?? null)}
                workflowId={workflowId}
                status={data.status}
                onSaved={(status) => setData((d) => (d ? { ...d, status: { ...d.status, ...status } } : d))}
              />
              <TraceSharingSection
                workflowId={workflowId}
                status={data.status}
                onSaved={(status) => setData((d) => (d ? { ...d, status: { ...d.status, ...status } } : d))}
              />
              <McpSection
                workflowId={workflowId}
                status={data.status}
                apiKey={created?.key ?? null}
                onSaved={(status) => setData((d) => (d ? { ...d, status: { ...d.status, ...status } } : d))}
              />
              <ChatSection
                workflowId={workflowId}
                status={data.status}
                onSaved={(status) => setData((d) => (d ? { ...d, status: { ...d.status, ...status } } : d))}
              />
              <CallbackSigningSection workflowId={workflowId} />
              <UsageSection
                endpoint={data.status.endpoint}
                published={data.status.published}
                apiKey={created?.key ?? null}
                inputs={inputs}
              />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
