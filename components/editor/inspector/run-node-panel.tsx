'use client';
/**
 * "Run this node" and pinned data in the inspector (engine/runtime/single-node-run.ts, pinned-data.ts). The input is
 * prefilled from the shown (else the last) run's snapshot of the node; sent only when edited, since an edited input
 * runs as it is, with no template resolved. Pinning stores `data.pinned = { output, at }` in the draft, like any edit.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { api, call, errorMessage } from '@/components/api/client';
import type { ErrorJson, NodeStatus, RunStatus } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { formatDuration, StatusBadge } from '@/components/ui/status';
import { useEditorContext, useRunState } from '../editor-context';
import type { NodeData } from '../graph-model';
import type { RunState } from '../run/run-store';

/** The types pinned-data.ts never seeds, and those a single node cannot run as (per loop pass, or pausing). */
const UNPINNABLE = new Set(['start', 'end', 'loop', 'human_input']);
const NOT_RUNNABLE_ALONE = new Set(['loop', 'human_input']);

interface Outcome {
  runId: string;
  status: NodeStatus | RunStatus;
  output: unknown;
  error: ErrorJson | null;
  usage: { inputTokens?: number; outputTokens?: number } | null;
  durationMs: number | null;
}

const selectRunId = (s: RunState) => s.runId;
const json = (v: unknown) => JSON.stringify(v ?? {}, null, 2);

export function RunNodePanel({ nodeId, type, data }: { nodeId: string; type: string; data: NodeData }) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('inspector.runNode');
  const format = useFormatter();
  const shownRunId = useRunState(selectRunId);
  const [prefill, setPrefill] = useState<{ input: string; output?: unknown } | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const pinned = data.pinned as { output: unknown; at?: string } | undefined;
  const pinnedDate = pinned?.at ? new Date(pinned.at) : undefined;
  const pinnedAt = pinnedDate && !Number.isNaN(pinnedDate.getTime()) ? pinnedDate : undefined;

  // The node's last resolved input and output: from the run on the canvas, else the workflow's latest run.
  useEffect(() => {
    let live = true;
    (async () => {
      const runId = shownRunId ?? (await api.listRuns(editor.state.workflowId))[0]?.id;
      const snap = runId ? (await api.getRun(runId)).nodes.find((n) => n.nodeId === nodeId) : undefined;
      if (!live) return;
      const input = snap && snap.status !== 'pending' ? json(snap.input) : '';
      setPrefill({ input, output: snap?.status === 'succeeded' ? snap.output : undefined });
      setText(input);
    })().catch(() => live && setPrefill({ input: '' }));
    return () => {
      live = false;
    };
  }, [editor, nodeId, shownRunId]);

  const edited = prefill !== null && text.trim() !== '' && text !== prefill.input;

  const run = async () => {
    setProblem(null);
    let input: unknown;
    if (edited) {
      try {
        input = JSON.parse(text);
      } catch {
        return setProblem(t('invalidJson'));
      }
    }
    setBusy(true);
    try {
      await editor.save(); // the server runs the stored draft
      const id = encodeURIComponent(editor.state.workflowId);
      const res = await call<Outcome | { runId: string; status: RunStatus }>(
        'POST',
        `/api/workflows/${id}/nodes/${encodeURIComponent(nodeId)}/run`,
        input === undefined ? {} : { input },
      );
      if ('output' in res) setOutcome(res);
      else runController.open(res.runId); // still running: follow it on the canvas
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const pinnable = outcome?.status === 'succeeded' ? outcome.output : prefill?.output;
  const pin = (output: unknown) =>
    editor.updateNodeData(nodeId, (d) => ({ ...d, pinned: { output, at: new Date().toISOString() } }));
  const unpin = () =>
    editor.updateNodeData(nodeId, (d) => {
      const { pinned: _drop, ...rest } = d;
      return rest as NodeData;
    });

  if (editor.readOnly) return null;
  return (
    <section className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-3" data-testid="run-node-panel">
      {!NOT_RUNNABLE_ALONE.has(type) && (
        <>
          <label className="block text-[12px] font-medium text-zinc-700" htmlFor="run-node-input">
            {t('resolvedInput')} {edited && <span className="text-amber-700">{t('edited')}</span>}
          </label>
          <textarea
            id="run-node-input"
            rows={5}
            value={text}
            placeholder={t('inputPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            data-testid="run-node-input"
            className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-mono text-[11px]"
          />
          <div className="flex items-center gap-2">
            <Button size="sm" variant="run" disabled={busy} onClick={() => void run()} data-testid="run-node">
              {busy ? t('running') : t('run')}
            </Button>
            {edited && (
              <Button size="sm" variant="ghost" onClick={() => setText(prefill!.input)}>
                {t('resetInput')}
              </Button>
            )}
          </div>
        </>
      )}
      {problem && <p className="text-[12px] text-red-600">{problem}</p>}
      {outcome && (
        <div className="space-y-1 text-[12px]" data-testid="run-node-outcome">
          <div className="flex items-center gap-2">
            <StatusBadge status={outcome.status} />
            <span className="tabular-nums text-zinc-500">{formatDuration(outcome.durationMs)}</span>
            {outcome.usage && (
              <span className="text-zinc-500">
                {t('tokens', { input: outcome.usage.inputTokens ?? 0, output: outcome.usage.outputTokens ?? 0 })}
              </span>
            )}
          </div>
          {outcome.error && <p className="text-red-700">{outcome.error.message}</p>}
          {outcome.status === 'succeeded' && (
            <pre className="max-h-48 overflow-auto rounded border border-zinc-200 bg-white p-2 font-mono text-[11px]">
              {json(outcome.output)}
            </pre>
          )}
        </div>
      )}
      {!UNPINNABLE.has(type) && (
        <div className="flex items-center gap-2 border-t border-zinc-200 pt-2">
          {pinned ? (
            <>
              <span className="flex-1 text-[12px] text-violet-700" data-testid="pinned-note">
                {pinnedAt
                  ? t('pinnedAt', { at: format.dateTime(pinnedAt, { dateStyle: 'medium', timeStyle: 'short' }) })
                  : t('pinned')}
              </span>
              <Button size="sm" variant="ghost" onClick={unpin} data-testid="unpin-output">
                {t('unpin')}
              </Button>
            </>
          ) : (
            <Button
              size="sm"
              disabled={pinnable === undefined}
              onClick={() => pin(pinnable)}
              data-testid="pin-output"
              title={t('pinTitle')}
            >
              {t('pin')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
