'use client';
/** Past runs of this workflow; opening one replays its trace onto the canvas. */
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage } from '@/components/api/client';
import type { RunSummary } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { formatDuration, StatusBadge } from '@/components/ui/status';
import { useEditorContext, useRunState } from '../editor-context';
import type { RunState } from './run-store';

/** A single-node run (POST /api/workflows/:id/nodes/:nodeId/run) names its node. */
type HistoryRun = RunSummary & { singleNode?: { nodeId: string; label: string | null } | null };

const selectRunId = (s: RunState) => s.runId;
const selectStatus = (s: RunState) => s.status;

export function RunHistory({ onOpen }: { onOpen: () => void }) {
  const { editor, runController } = useEditorContext();
  const currentId = useRunState(selectRunId);
  const status = useRunState(selectStatus);
  const [runs, setRuns] = useState<HistoryRun[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  // The state is set when the answer arrives, never synchronously inside the effect below.
  const load = useCallback(
    () =>
      api.listRuns(editor.state.workflowId).then(
        (list) => {
          setRuns(list);
          setError(null);
        },
        (e) => setError(errorMessage(e)),
      ),
    [editor],
  );

  // Reload when a run starts or changes state, so the list shows the current one.
  useEffect(() => {
    void load();
  }, [load, currentId, status]);

  return (
    <div className="flex h-full flex-col" data-testid="run-history">
      <div className="flex items-center justify-between border-b border-zinc-200 bg-zinc-50 px-3 py-1.5">
        <span className="text-[11px] text-zinc-500">
          {runs ? `${runs.length} run${runs.length === 1 ? '' : 's'}` : 'Loading…'}
        </span>
        <Button size="sm" variant="ghost" onClick={() => void load()} data-testid="refresh-runs">
          Refresh
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error && <div className="p-3 text-[12px] text-red-600">{error}</div>}
        {runs?.length === 0 && <div className="p-4 text-center text-[12px] text-zinc-500">No runs yet.</div>}
        {runs?.map((r) => {
          const ms = r.finishedAt ? new Date(r.finishedAt).getTime() - new Date(r.createdAt).getTime() : null;
          return (
            <button
              key={r.id}
              type="button"
              data-testid="run-history-row"
              data-run-id={r.id}
              onClick={() => {
                runController.open(r.id);
                onOpen();
              }}
              className={
                'flex w-full items-center gap-3 border-b border-zinc-100 px-3 py-1.5 text-left text-[12px] ' +
                `hover:bg-zinc-50 ${r.id === currentId ? 'bg-indigo-50/60' : ''}`
              }
            >
              <StatusBadge status={r.id === currentId && status !== 'idle' ? status : r.status} />
              <span className="font-mono text-[11px] text-zinc-600">{r.id.slice(0, 16)}…</span>
              {r.singleNode && (
                <span
                  className="shrink-0 rounded bg-amber-50 px-1.5 text-[11px] text-amber-800"
                  data-testid="run-single-node"
                >
                  single node: {r.singleNode.label || r.singleNode.nodeId}
                </span>
              )}
              <span className="text-zinc-500">{new Date(r.createdAt).toLocaleString()}</span>
              <span className="text-zinc-400">{r.engine}</span>
              <span className="min-w-0 flex-1 truncate text-red-600">{r.error?.message}</span>
              <span className="w-16 shrink-0 text-right tabular-nums text-zinc-500">{formatDuration(ms)}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
