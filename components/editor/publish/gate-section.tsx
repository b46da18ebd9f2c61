'use client';
/**
 * The publish gate: a dataset and scorers the draft is evaluated on before each publish, and the limits it must meet
 * (a scorer's minimum mean, its largest drop from the published version). Shown as a sentence while set; edited in
 * a small form whose scorers are edited with the Evaluate tab's scorer form, each with its two limits.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { authApi, type CredentialView } from '@/components/api/auth-api';
import { ApiError } from '@/components/api/client';
import { datasetsApi, type DatasetSummary } from '@/components/datasets/datasets-api';
import { Button } from '@/components/ui/button';
import { Field, INPUT } from '../evaluate/form-controls';
import { ScorerEditor } from '../evaluate/scorer-editor';
import {
  defaultOutput,
  expectedFields,
  pointedAtDataset,
  type DraftError,
  type ScorerDraft,
} from '../evaluate/scorer-drafts';
import { draftOf, gateOf, withScorerAdded, withScorerRemoved, type GateDraft } from './gate-draft';
import { publishApi, type PublishGate, type PublishStatus } from './publish-api';
import { ConfirmButton, InlineError, Section, inputClass } from './publish-ui';

export function GateSection({
  workflowId,
  status,
  outputs,
  readOnly,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  /** The workflow's End outputs: a scorer reads one; a new one reads the first. */
  outputs: string[];
  readOnly: boolean;
  onSaved: (s: PublishStatus) => void;
}) {
  const t = useTranslations('publish.gate');
  const gate = status.gate ?? null;
  const [datasets, setDatasets] = useState<DatasetSummary[] | null>(null);
  const [draft, setDraft] = useState<GateDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [scorerErrors, setScorerErrors] = useState<DraftError[]>([]);
  const [credentials, setCredentials] = useState<CredentialView[]>([]);

  useEffect(() => {
    let cancelled = false;
    datasetsApi
      .list()
      .then((list) => !cancelled && setDatasets(list))
      .catch(() => !cancelled && setDatasets([]));
    // For a judge's credential; a viewer may not list them, which only narrows the choice.
    authApi.listCredentials().then(
      (c) => !cancelled && setCredentials(c),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);

  // The fields the draft's dataset expects: an added scorer reads one of them. A dataset the user picks also points
  // scorers comparing an output it never expects at one it does (the seeded example's cases expect `route`, not its
  // first output `answer`); a stored gate opens as it was saved.
  const [expected, setExpected] = useState<{ id: string; fields: string[] } | null>(null);
  const loadFields = (datasetId: string, repoint: boolean) => {
    if (!datasetId) return;
    datasetsApi.get(datasetId).then(
      (d) => {
        const fields = expectedFields(d.rows);
        setExpected({ id: datasetId, fields });
        if (repoint)
          setDraft((cur) =>
            cur?.datasetId === datasetId ? { ...cur, scorers: pointedAtDataset(cur.scorers, outputs, fields) } : cur,
          );
      },
      () => undefined,
    );
  };
  const fieldsOf = (datasetId: string) => (expected?.id === datasetId ? expected.fields : []);

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
    setScorerErrors('problem' in out ? out.scorerErrors : []);
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
          <Button
            size="sm"
            data-testid="publish-gate-edit"
            onClick={() => {
              setDraft(draftOf(gate, outputs[0] ?? ''));
              if (gate) loadFields(gate.datasetId, false);
            }}
          >
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
          outputs={outputs}
          newField={defaultOutput(outputs, fieldsOf(draft.datasetId))}
          onPickDataset={(datasetId) => {
            setDraft({ ...draft, datasetId });
            loadFields(datasetId, true);
          }}
          credentials={credentials}
          scorerErrors={scorerErrors}
          busy={busy}
          onChange={setDraft}
          onSubmit={submit}
          onCancel={() => {
            setDraft(null);
            setError(null);
            setScorerErrors([]);
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
  outputs,
  newField,
  onPickDataset,
  credentials,
  scorerErrors,
  busy,
  onChange,
  onSubmit,
  onCancel,
}: {
  draft: GateDraft;
  datasets: DatasetSummary[] | null;
  outputs: string[];
  /** The End output an added scorer reads. */
  newField: string;
  onPickDataset: (datasetId: string) => void;
  credentials: CredentialView[];
  scorerErrors: DraftError[];
  busy: boolean;
  onChange: (d: GateDraft) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations('publish.gate');
  const patchScorer = (key: number, patch: Partial<ScorerDraft>) =>
    onChange({ ...draft, scorers: draft.scorers.map((s) => (s.key === key ? { ...s, ...patch } : s)) });
  const limit = (rule: 'minMean' | 'maxDrop', s: ScorerDraft) => (
    <Field label={t(rule)}>
      <input
        className={INPUT}
        inputMode="decimal"
        placeholder="—"
        aria-label={t(rule === 'minMean' ? 'minMeanOf' : 'maxDropOf', { name: s.name })}
        data-testid={`publish-gate-${rule}-${s.name.trim()}`}
        value={draft[rule][s.key] ?? ''}
        onChange={(e) => onChange({ ...draft, [rule]: { ...draft[rule], [s.key]: e.target.value } })}
      />
    </Field>
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
            onChange={(e) => onPickDataset(e.target.value)}
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
      <div className="space-y-2" data-testid="publish-gate-scorers">
        <span className="block text-zinc-600">{t('scorers')}</span>
        {draft.scorers.map((s, i) => (
          <ScorerEditor
            key={s.key}
            draft={s}
            index={i}
            outputs={outputs}
            credentials={credentials}
            errors={scorerErrors.filter((e) => e.index === i)}
            onChange={(patch) => patchScorer(s.key, patch)}
            onRemove={draft.scorers.length > 1 ? () => onChange(withScorerRemoved(draft, s.key)) : undefined}
            footer={
              <div className="mt-2 grid grid-cols-3 gap-2 border-t border-zinc-200 pt-2">
                {limit('minMean', s)}
                {limit('maxDrop', s)}
              </div>
            }
          />
        ))}
        <Button
          size="sm"
          variant="ghost"
          data-testid="publish-gate-add-scorer"
          onClick={() => onChange(withScorerAdded(draft, newField))}
        >
          + {t('addScorer')}
        </Button>
      </div>
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
