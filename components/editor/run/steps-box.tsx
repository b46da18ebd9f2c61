'use client';
/**
 * Time travel for a finished run: its steps in order (GET /api/runs/:id/checkpoints), the state after the picked one
 * (each step's output up to it) in a JSON editor, and "Fork from here" — a new run that reuses those steps, with the
 * outputs edited where the JSON says so, and runs the rest (POST /api/runs/:id/fork). The new run opens in the panel.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { api, errorMessage, type RunCheckpoints } from '@/components/api/client';
import { toast } from '@/components/ui/toast';
import { Button } from '@/components/ui/button';
import { JsonTextArea } from './json-textarea';

type Checkpoint = RunCheckpoints['checkpoints'][number];

/** The state after step `step`: every output up to it, by node id. */
function stateAt(checkpoints: Checkpoint[], step: number): Record<string, unknown> {
  return Object.fromEntries(checkpoints.slice(0, step).map((c) => [c.nodeId, c.output]));
}

/** The outputs `edited` changes or adds compared with `original`. */
function editsOf(original: Record<string, unknown>, edited: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(edited).filter(([id, v]) => JSON.stringify(v) !== JSON.stringify(original[id])),
  );
}

export function StepsBox({ runId, onForked }: { runId: string; onForked: (newRunId: string) => void }) {
  const t = useTranslations('run.steps');
  const [history, setHistory] = useState<RunCheckpoints | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.runCheckpoints(runId).then(
      (h) => live && setHistory(h),
      (e) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [runId]);

  const checkpoints = useMemo(() => history?.checkpoints ?? [], [history]);
  const original = useMemo(() => (step ? stateAt(checkpoints, step) : {}), [checkpoints, step]);
  const parsed = useMemo(() => {
    try {
      const v = JSON.parse(text);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }, [text]);

  const pick = (n: number) => {
    setStep(n);
    setText(JSON.stringify(stateAt(checkpoints, n), null, 2));
  };

  const fork = async () => {
    const at = checkpoints[step! - 1];
    setBusy(true);
    try {
      const r = await api.forkRun(runId, at.checkpointId, editsOf(original, parsed!));
      toast('info', t('forked', { n: at.step }), t('forkedDetail', { n: at.step }));
      onForked(r.runId);
    } catch (e) {
      toast('error', t('forkFailed'), errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="border-b border-sky-100 bg-sky-50/50 px-3 py-2 text-[12px]" data-testid="run-steps">
      <div className="mb-1 font-medium text-zinc-700">{t('heading')}</div>
      {error && <div className="text-red-600">{t('loadFailed', { reason: error })}</div>}
      {!history && !error && <div className="text-zinc-500">{t('loading')}</div>}
      {history && !checkpoints.length && <div className="text-zinc-500">{t('none')}</div>}
      <ol className="flex flex-wrap gap-1" aria-label={t('heading')}>
        {checkpoints.map((c) => (
          <li key={c.checkpointId}>
            <button
              type="button"
              onClick={() => pick(c.step)}
              aria-pressed={step === c.step}
              data-testid={`run-step-${c.step}`}
              className={
                'rounded border px-1.5 py-0.5 font-mono text-[11px] ' +
                (step === c.step ? 'border-sky-500 bg-sky-100 text-sky-900' : 'border-zinc-200 bg-white text-zinc-700')
              }
            >
              {t('step', { n: c.step, node: c.label ?? c.nodeId })}
            </button>
          </li>
        ))}
      </ol>
      {step !== null && (
        <div className="mt-2 space-y-1">
          <JsonTextArea
            value={text}
            onChange={setText}
            label={t('stateLabel', { n: step })}
            testId="run-step-state"
            invalid={!parsed}
            tone="amber"
          />
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              variant="primary"
              disabled={!parsed || busy}
              onClick={() => void fork()}
              data-testid="fork-run"
              title={t('forkTitle', { n: step })}
            >
              {t('fork')}
            </Button>
            <span className="text-zinc-500">{parsed ? t('hint') : t('invalid')}</span>
          </div>
        </div>
      )}
    </div>
  );
}
