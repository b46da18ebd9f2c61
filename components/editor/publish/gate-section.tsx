'use client';
/**
 * The publish gate: a dataset and scorers the draft is evaluated on before each publish, and the limits it must meet
 * (a scorer's minimum mean, its largest drop from the published version). Shown as a sentence while set; edited in
 * a small form whose scorers are the same JSON an evaluation takes (docs/evaluations.md).
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ApiError } from '@/components/api/client';
import { datasetsApi, type DatasetSummary } from '@/components/datasets/datasets-api';
import { Button } from '@/components/ui/button';
import { JsonTextArea } from '../run/json-textarea';
import { draftOf, gateOf, scorerNamesOf, type GateDraft } from './gate-draft';
import { publishApi, type PublishGate, type PublishStatus } from './publish-api';
import { ConfirmButton, InlineError, Section, inputClass } from './publish-ui';

export function GateSection({
  workflowId,
  status,
  firstOutput,
  readOnly,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  /** The workflow's first End output: a new gate's scorer compares it. */
  firstOutput: string | null;
  readOnly: boolean;
  onSaved: (s: PublishStatus) => void;
}) {
  const t = useTranslations('publish.gate');
  const gate = status.gate ?? null;
  const [datasets, setDatasets] = useState<DatasetSummary[] | null>(null);
  const [draft, setDraft] = useState<GateDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let cancelled = false;
    datasetsApi
      .list()
      .then((list) => !cancelled && setDatasets(list))
      .catch(() => !cancelled && setDatasets([]));
    return () => {
      cancelled = true;
    };
  }, []);

  const save = async (next: PublishGate | null) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await publishApi.setGate(workflowId, next));
      setDraft(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    if (!draft) return;
    const out = gateOf(draft);
    if ('problem' in out) {
      const { key, path, values } = out.problem;
      setError(new ApiError(400, 'INVALID_GATE', t(`problems.${key}`, values ?? {}), path));
      return;
    }
    void save(out.gate);
  };

  const datasetName = (id: string) => datasets?.find((d) => d.id === id)?.name ?? id;

  return (
    <Section title={t('title')} testId="publish-gate-section">
      <p className="mb-2 text-[12px] text-zinc-600">{t('intro')}</p>
      {!draft && gate && (
        <div data-testid="publish-gate-summary" className="mb-2 rounded-md bg-zinc-50 p-2.5 text-[12px] text-zinc-800">
          <p>
            {t('summary', {
              dataset: datasetName(gate.datasetId),
              scorers: gate.scorers.map((s) => s.name).join(', '),
            })}
          </p>
          <ul className="mt-1 list-disc pl-5 text-zinc-600">
            {Object.entries(gate.minMean ?? {}).map(([name, v]) => (
              <li key={`min-${name}`}>{t('ruleMinMean', { name, limit: String(v) })}</li>
            ))}
            {Object.entries(gate.maxDrop ?? {}).map(([name, v]) => (
              <li key={`drop-${name}`}>{t('ruleMaxDrop', { name, limit: String(v) })}</li>
            ))}
          </ul>
        </div>
      )}
      {!draft && !gate && <p className="mb-2 text-[12px] text-zinc-500">{t('none')}</p>}
      {!draft && !readOnly && (
        <div className="flex gap-2">
          <Button size="sm" data-testid="publish-gate-edit" onClick={() => setDraft(draftOf(gate, firstOutput))}>
            {gate ? t('edit') : t('add')}
          </Button>
          {gate && (
            <ConfirmButton
              label={t('remove')}
              question={t('removeQuestion')}
              confirmLabel={t('removeConfirm')}
              testId="publish-gate-remove"
              onConfirm={() => save(null)}
            />
          )}
        </div>
      )}
      {draft && (
        <GateForm
          draft={draft}
          datasets={datasets}
          busy={busy}
          onChange={setDraft}
          onSubmit={submit}
          onCancel={() => {
            setDraft(null);
            setError(null);
          }}
        />
      )}
      <InlineError error={error} testId="publish-gate-error" />
    </Section>
  );
}

function GateForm({
  draft,
  datasets,
  busy,
  onChange,
  onSubmit,
  onCancel,
}: {
  draft: GateDraft;
  datasets: DatasetSummary[] | null;
  busy: boolean;
  onChange: (d: GateDraft) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations('publish.gate');
  const names = scorerNamesOf(draft.scorersText);
  const limit = (rule: 'minMean' | 'maxDrop', name: string) => (
    <input
      className={`${inputClass} w-20`}
      inputMode="decimal"
      placeholder="—"
      aria-label={t(rule === 'minMean' ? 'minMeanOf' : 'maxDropOf', { name })}
      data-testid={`publish-gate-${rule}-${name}`}
      value={draft[rule][name] ?? ''}
      onChange={(e) => onChange({ ...draft, [rule]: { ...draft[rule], [name]: e.target.value } })}
    />
  );
  return (
    <div className="space-y-2.5 text-[12px]" data-testid="publish-gate-form">
      <label className="block">
        <span className="mb-1 block text-zinc-600">{t('dataset')}</span>
        {datasets && !datasets.length ? (
          <span className="text-zinc-500">
            {t('noDatasets')}{' '}
            <Link href="/datasets" className="text-indigo-600 hover:underline">
              {t('openDatasets')}
            </Link>
          </span>
        ) : (
          <select
            className={inputClass}
            data-testid="publish-gate-dataset"
            value={draft.datasetId}
            onChange={(e) => onChange({ ...draft, datasetId: e.target.value })}
          >
            <option value="">{t('pickDataset')}</option>
            {(datasets ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {t('datasetOption', { name: d.name, rows: d.rowCount })}
              </option>
            ))}
          </select>
        )}
      </label>
      <div>
        <span className="mb-1 block text-zinc-600">{t('scorers')}</span>
        <JsonTextArea
          value={draft.scorersText}
          onChange={(scorersText) => onChange({ ...draft, scorersText })}
          label={t('scorers')}
          testId="publish-gate-scorers"
          invalid={!names.length}
          tone="amber"
        />
        <p className="mt-1 text-[11px] text-zinc-500">{t('scorersHelp')}</p>
      </div>
      {names.length > 0 && (
        <table className="w-full text-left">
          <thead className="text-[11px] text-zinc-500">
            <tr>
              <th className="py-1 font-medium">{t('scorer')}</th>
              <th className="py-1 font-medium">{t('minMean')}</th>
              <th className="py-1 font-medium">{t('maxDrop')}</th>
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <td className="max-w-[10rem] truncate py-1 pr-2 font-mono text-[11px]" title={name}>
                  {name}
                </td>
                <td className="py-1 pr-2">{limit('minMean', name)}</td>
                <td className="py-1">{limit('maxDrop', name)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="text-[11px] text-zinc-500">{t('limitsHelp')}</p>
      <div className="flex gap-2">
        <Button size="sm" variant="primary" data-testid="publish-gate-save" disabled={busy} onClick={onSubmit}>
          {busy ? t('saving') : t('save')}
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </div>
  );
}
