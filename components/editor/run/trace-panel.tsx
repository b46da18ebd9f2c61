'use client';
/** The shown run: status and controls, then every node span in execution order with its child spans nested. */
import { useTranslations } from 'next-intl';
import { memo, useCallback, useState } from 'react';
import { tr } from '@/components/lib/i18n';
import { Button } from '@/components/ui/button';
import { formatDuration, StatusBadge } from '@/components/ui/status';
import { useEditorContext, useRunState } from '../editor-context';
import { AddToDatasetBox } from './add-to-dataset';
import { cancelRun, startResume } from './run-actions';
import { AnswerBox } from './answer-box';
import { ArtifactPreview } from './artifact-preview';
import { ChatFeedbackBox } from './chat-feedback-box';
import { formatUsd, runTotal, usedDemoModel } from './run-cost';
import { childRunHref } from './run-url';
import { isTerminal, type RunState, type TraceSpan } from './run-store';
import { BreakpointBox } from './breakpoint-box';
import { StepsBox } from './steps-box';
import { ToolApprovalBox } from './tool-approval-box';

const selectRun = (s: RunState) => s;

/**
 * "12 in / 3 out tok", then ` · $0.0012`, or ` · price unknown` for a model without a price (engine/llm/prices.ts).
 */
function usageText(usage: { inputTokens?: number; outputTokens?: number; costUsd?: number | null }): string {
  const tokens = tr('run.cost.tokensShort', { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 });
  return usage.costUsd === undefined ? tokens : tr('run.cost.withCost', { tokens, cost: formatUsd(usage.costUsd) });
}

function streamedTextOf(error: TraceSpan['error']): string {
  const t = (error?.details as { streamedText?: unknown } | undefined)?.streamedText;
  return typeof t === 'string' ? t : '';
}

function Json({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      data-testid={testId}
      className={
        'max-h-56 overflow-auto whitespace-pre-wrap break-words rounded-md border ' +
        'border-zinc-200 bg-zinc-50 p-2 font-mono text-[11px] leading-snug text-zinc-800'
      }
    >
      {text}
    </pre>
  );
}

function oneLine(v: unknown): string {
  if (v === undefined || v === null) return '';
  const t =
    typeof v === 'object' && 'text' in (v as object) && typeof (v as { text: unknown }).text === 'string'
      ? (v as { text: string }).text
      : typeof v === 'string'
        ? v
        : JSON.stringify(v);
  return t.length > 160 ? `${t.slice(0, 160)}…` : t;
}

const versionLabel = (v: number | string) => (typeof v === 'number' ? `v${v}` : v);

const SpanRow = memo(function SpanRow({
  span,
  depth,
  label,
  onSelect,
}: {
  span: TraceSpan;
  depth: number;
  label: (id?: string) => string;
  onSelect: (id?: string) => void;
}) {
  const t = useTranslations('run.trace');
  const [open, setOpen] = useState<boolean | null>(null);
  const expanded = open ?? span.status === 'failed';
  if (span.kind === 'marker') {
    return (
      <div
        className="my-1 flex items-center gap-2 px-3 py-1 text-[11px] font-medium text-indigo-700"
        data-testid="trace-marker"
      >
        <span className="h-px flex-1 bg-indigo-200" />
        {span.name}
        <span className="h-px flex-1 bg-indigo-200" />
      </div>
    );
  }
  // A cancelled node keeps what it had streamed (live tokens, else the error's details.streamedText from the store).
  const streamed = span.status === 'cancelled' ? span.tokens || streamedTextOf(span.error) : '';
  const usage = span.usage && (span.usage.inputTokens || span.usage.outputTokens) ? usageText(span.usage) : '';
  return (
    <div
      data-testid={span.kind === 'node' ? 'trace-row' : 'trace-child'}
      data-type={span.type}
      data-node-id={span.nodeId}
      data-status={span.status}
      data-attempt={span.attempt}
    >
      <button
        type="button"
        onClick={() => {
          setOpen(!expanded);
          if (span.kind === 'node') onSelect(span.nodeId);
        }}
        className={
          'flex w-full items-center gap-2 border-b border-zinc-100 ' +
          'px-3 py-1.5 text-left text-[12px] hover:bg-zinc-50'
        }
        style={{ paddingLeft: 12 + depth * 18 }}
      >
        <span className={`inline-block w-3 text-zinc-400 transition-transform ${expanded ? 'rotate-90' : ''}`}>›</span>
        <StatusBadge status={span.status} />
        <span className="min-w-0 shrink-0 font-medium text-zinc-800">
          {span.kind === 'node' ? label(span.nodeId) : span.name}
        </span>
        <span className="shrink-0 font-mono text-[10px] text-zinc-400">
          {span.kind === 'node' ? `${span.nodeId} · ${span.type}` : span.type}
        </span>
        <span className="min-w-0 flex-1 truncate text-zinc-500" data-testid="trace-preview">
          {span.status === 'failed' ? (
            <span className="text-red-600">{span.error?.message}</span>
          ) : span.status === 'running' || streamed ? (
            (streamed || span.tokens).slice(-120)
          ) : (
            oneLine(span.output)
          )}
        </span>
        {span.iteration !== undefined && (
          <span
            className="shrink-0 rounded bg-sky-50 px-1.5 text-[10px] font-medium text-sky-700"
            data-testid="trace-iteration"
          >
            {t('pass', { n: span.iteration + 1 })}
          </span>
        )}
        {span.iteration === undefined && (span.attempt ?? 1) > 1 && (
          <span
            className="shrink-0 rounded bg-amber-50 px-1.5 text-[10px] font-medium text-amber-700"
            data-testid="trace-attempt"
          >
            {t('attempt', { n: span.attempt ?? 1 })}
          </span>
        )}
        {span.usage?.demo && (
          <span
            className="shrink-0 rounded bg-amber-100 px-1.5 text-[10px] font-medium text-amber-800"
            data-testid="trace-demo-model"
            title={t('demoModelTitle')}
          >
            {t('demoModelNode')}
          </span>
        )}
        {usage && <span className="shrink-0 text-[10px] text-zinc-400">{usage}</span>}
        <span className="w-14 shrink-0 text-right text-[11px] tabular-nums text-zinc-500">
          {formatDuration(span.durationMs)}
        </span>
      </button>
      {span.childRun && (
        <div className="border-b border-zinc-100 px-3 py-1 text-[11px]" style={{ paddingLeft: 30 + depth * 18 }}>
          <a
            href={childRunHref(span.childRun)}
            data-testid="child-run-link"
            data-run-id={span.childRun.runId}
            className="font-medium text-indigo-700 hover:underline"
          >
            {t('childRun', { id: span.childRun.runId.slice(0, 16) })}
            {span.childRun.version != null ? ` (${versionLabel(span.childRun.version)})` : ''} ↗
          </a>
        </div>
      )}
      {expanded && (
        <div
          className="grid grid-cols-2 gap-3 border-b border-zinc-100 bg-white px-3 py-2"
          style={{ paddingLeft: 30 + depth * 18 }}
          data-testid="trace-details"
        >
          <div className="min-w-0">
            <div className="mb-1 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">{t('input')}</div>
            {span.input !== undefined ? (
              <Json value={span.input} />
            ) : (
              <div className="text-[11px] text-zinc-400">—</div>
            )}
          </div>
          <div className="min-w-0">
            <div className="mb-1 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">
              {span.status === 'failed'
                ? t('error')
                : span.status === 'running'
                  ? t('streaming')
                  : streamed
                    ? t('streamedBeforeCancel')
                    : t('output')}
            </div>
            {span.status === 'failed' && span.error ? (
              <Json value={span.error} testId="trace-error" />
            ) : span.status === 'running' ? (
              <Json value={span.tokens || '…'} testId="trace-tokens" />
            ) : streamed ? (
              <Json value={streamed} testId="trace-streamed" />
            ) : span.output !== undefined ? (
              <>
                <Json value={span.output} testId="trace-output" />
                <ArtifactPreview value={span.output} />
              </>
            ) : (
              <div className="text-[11px] text-zinc-400">—</div>
            )}
            <div className="mt-1.5 flex flex-wrap gap-x-3 text-[10px] text-zinc-500">
              {span.iteration !== undefined && <span>{t('passFact', { n: span.iteration + 1 })}</span>}
              {span.iteration === undefined && span.attempt !== undefined && (
                <span>{t('attemptsFact', { n: span.attempt })}</span>
              )}
              {span.durationMs != null && (
                <span>{t('durationFact', { duration: formatDuration(span.durationMs) })}</span>
              )}
              {usage && <span>{t('tokensFact', { usage })}</span>}
            </div>
            {span.notes.length > 0 && (
              <ul className="mt-1 list-disc pl-4 text-[10px] text-amber-700">
                {span.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
      {span.children.map((c) => (
        <SpanRow key={c.spanId} span={c} depth={depth + 1} label={label} onSelect={onSelect} />
      ))}
    </div>
  );
});

export function TracePanel() {
  const { editor, runs, runController } = useEditorContext();
  const run = useRunState(selectRun);
  const t = useTranslations('run.trace');
  const tDataset = useTranslations('evaluate.addToDataset');
  const [addingRun, setAddingRun] = useState<string | null>(null);
  const [stepsOf, setStepsOf] = useState<string | null>(null);
  // Stable callbacks keep the memoised rows from re-rendering when only other spans changed.
  const label = useCallback(
    (id?: string) => {
      const n = id ? editor.state.nodes.find((x) => x.id === id) : undefined;
      return n?.data.label || id || '';
    },
    [editor],
  );
  const onSelect = useCallback(
    (id?: string) => {
      if (id) editor.selectNode(id);
    },
    [editor],
  );

  if (!run.runId) {
    return (
      <div className="p-6 text-center text-sm text-zinc-500" data-testid="trace-empty">
        {t.rich('empty', { b: (c) => <b>{c}</b> })}
      </div>
    );
  }
  const failedNode = [...run.nodes.entries()].find(([, n]) => n.status === 'failed')?.[0];
  const canResume = run.status === 'failed' || run.status === 'cancelled' || run.status === 'interrupted';
  const active = run.status === 'running' || run.status === 'queued' || run.status === 'waiting';
  const elapsed =
    run.startedAt && run.finishedAt ? new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime() : null;
  const total = runTotal(run);
  const showTotal = !!total && (total.inputTokens > 0 || total.outputTokens > 0 || !!total.costUsd);
  const demo = usedDemoModel(run);

  const resume = async () => {
    if (!(await editor.save({ manual: true }))) return;
    await startResume(runs, runController, run.runId!);
  };

  return (
    <div
      className="flex h-full flex-col"
      data-testid="trace-panel"
      data-run-id={run.runId}
      data-run-status={run.status}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5">
        <StatusBadge status={run.status} testId="run-status" />
        <span className="font-mono text-[11px] text-zinc-500" title={run.runId}>
          {run.runId.slice(0, 16)}…
        </span>
        {elapsed !== null && <span className="text-[11px] text-zinc-500">{formatDuration(elapsed)}</span>}
        {showTotal && (
          <span
            className="text-[11px] tabular-nums text-zinc-500"
            data-testid="run-cost"
            data-cost-usd={total.costUsd ?? 'unknown'}
            title={isTerminal(run.status) ? t('totalTitle') : t('soFarTitle')}
          >
            {usageText(total)}
          </span>
        )}
        {demo && (
          <span
            className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-800"
            data-testid="run-demo-model"
            title={t('demoModelTitle')}
          >
            {t('demoModel')}
          </span>
        )}
        {run.connection === 'reconnecting' && (
          <span className="text-[11px] text-amber-600" data-testid="run-reconnecting">
            {t('reconnecting')}
          </span>
        )}
        {run.error && (
          <span
            className="min-w-0 flex-1 truncate text-[11px] text-red-600"
            data-testid="run-error"
            title={run.error.message}
          >
            {run.error.message}
          </span>
        )}
        <span className="flex-1" />
        {canResume && (
          <Button
            size="sm"
            variant="primary"
            onClick={() => void resume()}
            data-testid="resume-run"
            title={failedNode ? t('resumeTitle', { node: failedNode }) : undefined}
          >
            {failedNode ? t('resumeFrom', { node: failedNode }) : t('resume')}
          </Button>
        )}
        {active && (
          <Button size="sm" variant="secondary" onClick={() => void cancelRun(run.runId!)} data-testid="cancel-run">
            {t('cancel')}
          </Button>
        )}
        {isTerminal(run.status) && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setStepsOf(stepsOf === run.runId ? null : run.runId)}
            aria-expanded={stepsOf === run.runId}
            data-testid="run-steps-open"
            title={t('stepsTitle')}
          >
            {t('steps')}
          </Button>
        )}
        {isTerminal(run.status) && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setAddingRun(addingRun === run.runId ? null : run.runId)}
            aria-expanded={addingRun === run.runId}
            data-testid="add-to-dataset-open"
          >
            {tDataset('button')}
          </Button>
        )}
        {!active && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              runController.close();
              runs.reset(null);
            }}
            data-testid="clear-run"
          >
            {t('clear')}
          </Button>
        )}
      </div>
      {stepsOf === run.runId && isTerminal(run.status) && (
        <StepsBox
          key={run.runId}
          runId={run.runId}
          onForked={(id) => {
            setStepsOf(null);
            runController.open(id);
          }}
        />
      )}
      {addingRun === run.runId && isTerminal(run.status) && (
        <AddToDatasetBox
          key={run.runId}
          runId={run.runId}
          succeeded={run.status === 'succeeded'}
          onClose={() => setAddingRun(null)}
        />
      )}
      {run.status === 'waiting' &&
        (run.waitingBreakpoint ? (
          <BreakpointBox
            key={`${run.waitingBreakpoint.nodeId}:${run.waitingSince ?? ''}`}
            runId={run.runId}
            prompt={run.waitingBreakpoint}
          />
        ) : run.waitingApproval ? (
          <ToolApprovalBox
            key={run.waitingApproval.callId}
            runId={run.runId}
            nodeId={run.waitingNodeId}
            prompt={run.waitingApproval}
          />
        ) : (
          <AnswerBox runId={run.runId} nodeId={run.waitingNodeId} prompt={run.waitingPrompt} />
        ))}
      <div className="min-h-0 flex-1 overflow-y-auto">
        {run.spans.length === 0 && (
          <div className="p-4 text-[12px] text-zinc-500">
            {isTerminal(run.status) ? t('noEvents') : t('waitingEvents')}
          </div>
        )}
        {run.spans.map((s) => (
          <SpanRow key={s.spanId} span={s} depth={0} label={label} onSelect={onSelect} />
        ))}
        {run.status === 'succeeded' && run.outputs && (
          <div className="border-t border-zinc-200 px-3 py-2">
            <div className="mb-1 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">{t('outputs')}</div>
            <Json value={run.outputs} testId="run-outputs" />
            <ArtifactPreview value={run.outputs} />
          </div>
        )}
        {run.status === 'succeeded' && <ChatFeedbackBox runId={run.runId} />}
      </div>
    </div>
  );
}
