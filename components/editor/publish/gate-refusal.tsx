'use client';
/**
 * A publish the gate refused (409 EVAL_GATE_FAILED): which limits the draft missed, its scores next to the published
 * version's, how many rows got better or worse, and — for an owner — publishing anyway (recorded in the audit log).
 */
import { useTranslations } from 'next-intl';
import { ApiError } from '@/components/api/client';
import type { EvaluationSummary, GateRefusal } from './publish-api';
import { ConfirmButton } from './publish-ui';

/** The gate's refusal a publish error carries, or null for any other error. */
export function gateRefusalOf(error: unknown): (GateRefusal & { message: string }) | null {
  if (!(error instanceof ApiError) || error.code !== 'EVAL_GATE_FAILED' || !error.body) return null;
  const body = error.body as unknown as Partial<GateRefusal>;
  if (!Array.isArray(body.failures) || !body.summary || typeof body.evaluationId !== 'string') return null;
  return {
    evaluationId: body.evaluationId,
    baselineEvaluationId: body.baselineEvaluationId ?? null,
    failures: body.failures,
    summary: body.summary,
    comparison: body.comparison ?? null,
    message: error.message,
  };
}

const two = (n: number | null | undefined) => (typeof n === 'number' ? n.toFixed(2) : '—');

function meanOf(summary: EvaluationSummary, name: string): number | null {
  const s = summary[name];
  return s && typeof s === 'object' ? s.mean : null;
}

export function GateRefusalBox({
  refusal,
  canForce,
  onForce,
}: {
  refusal: GateRefusal & { message: string };
  canForce: boolean;
  onForce: () => Promise<void>;
}) {
  const t = useTranslations('publish.gateRefusal');
  const names = [...new Set(refusal.failures.map((f) => f.scorer))];
  const others = Object.keys(refusal.comparison?.scorers ?? {}).filter((n) => !names.includes(n));
  const counts = refusal.comparison?.counts;
  return (
    <div
      role="alert"
      data-testid="publish-gate-refusal"
      className="mt-2 rounded-md border border-red-200 bg-red-50 p-2.5 text-[12px] text-red-900"
    >
      <p className="font-semibold">{t('heading')}</p>
      <ul className="mt-1 list-disc pl-5" data-testid="publish-gate-failures">
        {refusal.failures.map((f) => (
          <li key={`${f.scorer}-${f.rule}`}>
            {f.rule === 'minMean'
              ? t('belowMin', { name: f.scorer, value: two(f.value), limit: two(f.limit) })
              : t('droppedBy', { name: f.scorer, value: two(f.value), limit: two(f.limit) })}
          </li>
        ))}
      </ul>
      <table className="mt-2 w-full text-left text-[11px]">
        <thead className="text-red-700">
          <tr>
            <th className="py-0.5 font-medium">{t('scorer')}</th>
            <th className="py-0.5 font-medium">{t('published')}</th>
            <th className="py-0.5 font-medium">{t('draft')}</th>
          </tr>
        </thead>
        <tbody>
          {[...names, ...others].map((name) => (
            <tr key={name} data-testid={`publish-gate-score-${name}`}>
              <td className="max-w-[10rem] truncate py-0.5 pr-2 font-mono" title={name}>
                {name}
              </td>
              <td className="py-0.5 pr-2">{two(refusal.comparison?.scorers[name]?.a)}</td>
              <td className="py-0.5">{two(refusal.comparison?.scorers[name]?.b ?? meanOf(refusal.summary, name))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {counts && (
        <p className="mt-1.5 text-red-800" data-testid="publish-gate-counts">
          {t('counts', { better: counts.better ?? 0, worse: counts.worse ?? 0, same: counts.same ?? 0 })}
        </p>
      )}
      <p className="mt-1.5 text-red-700">
        {t('evaluation')} <span className="font-mono text-[10px]">{refusal.evaluationId}</span>
      </p>
      {canForce && (
        <div className="mt-2">
          <ConfirmButton
            label={t('force')}
            question={t('forceQuestion')}
            confirmLabel={t('forceConfirm')}
            testId="publish-force"
            onConfirm={onForce}
          />
        </div>
      )}
    </div>
  );
}
