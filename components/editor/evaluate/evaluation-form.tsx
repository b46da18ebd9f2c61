'use client';
/**
 * The Evaluate form: a dataset of the workspace (a link to /datasets when there is none), the version to run (the
 * draft, saved first, or a published one), how many rows run at once, and the scorers. Mistakes scorer-drafts.ts
 * finds are shown under their inputs and nothing is sent; the server's refusal (code, message, path) beside the form.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { authApi, type CredentialView } from '@/components/api/auth-api';
import { ApiError, errorMessage } from '@/components/api/client';
import { datasetsApi, type DatasetSummary } from '@/components/datasets/datasets-api';
import { Button } from '@/components/ui/button';
import { useEditorContext } from '../editor-context';
import { publishApi, type VersionInfo } from '../publish/publish-api';
import { InlineError } from '../publish/publish-ui';
import { evaluateApi } from './evaluate-api';
import { Field, INPUT } from './form-controls';
import { ScorerEditor } from './scorer-editor';
import { useExpectedFields } from './use-expected-fields';
import {
  defaultOutput,
  evaluationBody,
  freeName,
  pointedAtDataset,
  serverDraftError,
  MAX_CONCURRENCY,
  newScorerDraft,
  type DraftError,
  type EvaluationDraft,
  type ScorerDraft,
} from './scorer-drafts';

/** The workspace's datasets, the workflow's published versions and (for a judge) its credentials. */
function useFormChoices(workflowId: string) {
  const [datasets, setDatasets] = useState<DatasetSummary[] | null>(null);
  const [versions, setVersions] = useState<VersionInfo[]>([]);
  const [credentials, setCredentials] = useState<CredentialView[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    datasetsApi.list().then(
      (list) => live && setDatasets(list),
      (e) => live && setError(errorMessage(e)),
    );
    // A workflow never published has no versions; a viewer may not list credentials: both only narrow the choice.
    publishApi.versions(workflowId).then(
      (v) => live && setVersions(v),
      () => undefined,
    );
    authApi.listCredentials().then(
      (c) => live && setCredentials(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [workflowId]);
  return { datasets, versions, credentials, error };
}

/**
 * Once the picked dataset's expected fields are known, scorers comparing an output it never expects read one it does
 * (pointedAtDataset): the seeded example's cases expect `route`, not its first output `answer`. Once per dataset.
 */
function useRepointOnDataset(
  expected: string[] | null,
  outputs: string[],
  onDraft: (f: (d: EvaluationDraft) => EvaluationDraft) => void,
) {
  const applied = useRef('');
  useEffect(() => {
    const key = expected && JSON.stringify([expected, outputs]);
    if (!key || key === applied.current) return;
    applied.current = key;
    onDraft((d) => {
      const scorers = pointedAtDataset(d.scorers, outputs, expected);
      return scorers === d.scorers ? d : { ...d, scorers };
    });
  }, [expected, outputs, onDraft]);
}

export function EvaluationForm({
  draft,
  outputs,
  onDraft,
  onStarted,
}: {
  draft: EvaluationDraft;
  outputs: string[];
  onDraft: (f: (d: EvaluationDraft) => EvaluationDraft) => void;
  onStarted: (evaluationId: string) => void;
}) {
  const t = useTranslations('evaluate.form');
  const te = useTranslations('evaluate.errors');
  const { editor } = useEditorContext();
  const workflowId = editor.state.workflowId;
  const { datasets, versions, credentials, error: loadError } = useFormChoices(workflowId);
  const [errors, setErrors] = useState<DraftError[]>([]);
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // The first dataset is picked once the list is known and nothing is picked yet.
  const datasetId = draft.datasetId || datasets?.[0]?.id || '';
  const effective: EvaluationDraft = { ...draft, datasetId };
  const expected = useExpectedFields(datasetId);
  useRepointOnDataset(expected, outputs, onDraft);
  const formError = (option: string) => {
    const e = errors.find((x) => x.index === undefined && x.option === option);
    return e ? te(e.key) : undefined;
  };
  const patchScorer = (key: number, patch: Partial<ScorerDraft>) =>
    onDraft((d) => ({ ...d, scorers: d.scorers.map((s) => (s.key === key ? { ...s, ...patch } : s)) }));

  const start = async () => {
    const { body, errors: found } = evaluationBody(effective);
    setErrors(found);
    setServerError(null);
    if (!body) return;
    setBusy(true);
    try {
      if (body.version === 'draft' && !(await editor.save({ manual: true }))) return;
      const { evaluationId } = await evaluateApi.start(workflowId, body);
      onStarted(evaluationId);
    } catch (e) {
      setServerError(e);
      // Shown under the input it is about too, when the server names a scorer's option.
      const at = e instanceof ApiError ? serverDraftError(e.path, e.message) : null;
      if (at) setErrors([at]);
    } finally {
      setBusy(false);
    }
  };

  if (datasets && !datasets.length)
    return (
      <p className="p-4 text-[12px] text-zinc-600" data-testid="evaluate-no-datasets">
        {t.rich('noDatasets', {
          link: (c) => (
            <a href="/datasets" className="font-medium text-indigo-700 hover:underline">
              {c}
            </a>
          ),
        })}
      </p>
    );

  return (
    <form
      className="max-w-3xl space-y-3 p-3"
      data-testid="evaluate-form"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <div className="flex items-baseline gap-3">
        <h3 className="text-[13px] font-semibold text-zinc-800">{t('heading')}</h3>
        <p className="min-w-0 flex-1 truncate text-[11px] text-zinc-500" title={t('intro')}>
          {t('intro')}
        </p>
        <a href="/datasets" className="shrink-0 text-[11px] font-medium text-indigo-700 hover:underline">
          {t('datasets')}
        </a>
      </div>
      {loadError && <InlineError error={loadError} testId="evaluate-load-error" />}
      <div className="grid grid-cols-[minmax(0,1fr)_10rem_9rem] items-start gap-2">
        <Field label={t('dataset')} error={formError('dataset')} errorTestId="evaluate-form-error">
          <select
            className={INPUT}
            value={datasetId}
            data-testid="evaluate-dataset"
            onChange={(e) => onDraft((d) => ({ ...d, datasetId: e.target.value }))}
          >
            {(datasets ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {t('datasetOption', { name: d.name, count: d.rowCount })}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('version')}>
          <select
            className={INPUT}
            value={draft.version}
            data-testid="evaluate-version"
            onChange={(e) => onDraft((d) => ({ ...d, version: e.target.value }))}
          >
            <option value="draft">{t('draft')}</option>
            {versions.map((v) => (
              <option key={v.id} value={String(v.version)}>
                {v.current ? t('currentVersion', { version: v.version }) : t('versionOption', { version: v.version })}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={`${t('concurrency')} (${t('concurrencyHint')})`}
          error={formError('concurrency')}
          errorTestId="evaluate-form-error"
        >
          <input
            type="number"
            min={1}
            max={MAX_CONCURRENCY}
            className={INPUT}
            value={draft.concurrency}
            data-testid="evaluate-concurrency"
            onChange={(e) => onDraft((d) => ({ ...d, concurrency: e.target.value }))}
          />
        </Field>
      </div>
      <div className="space-y-2" data-testid="evaluate-scorers">
        <div className="text-[10px] font-medium uppercase tracking-wide text-zinc-500">{t('scorers')}</div>
        {draft.scorers.map((s, i) => (
          <ScorerEditor
            key={s.key}
            draft={s}
            index={i}
            outputs={outputs}
            credentials={credentials}
            errors={errors.filter((e) => e.index === i)}
            onChange={(patch) => patchScorer(s.key, patch)}
            onRemove={
              draft.scorers.length > 1
                ? () => onDraft((d) => ({ ...d, scorers: d.scorers.filter((x) => x.key !== s.key) }))
                : undefined
            }
          />
        ))}
        {formError('scorers') && <p className="text-[11px] text-red-600">{formError('scorers')}</p>}
        <Button
          size="sm"
          variant="ghost"
          data-testid="evaluate-add-scorer"
          onClick={() =>
            onDraft((d) => {
              const name = freeName(
                'exact',
                d.scorers.map((x) => x.name),
              );
              return {
                ...d,
                scorers: [...d.scorers, { ...newScorerDraft('exact', defaultOutput(outputs, expected ?? [])), name }],
              };
            })
          }
        >
          + {t('addScorer')}
        </Button>
      </div>
      {serverError != null && (
        <div data-testid="evaluate-server-error">
          <p className="text-[11px] text-zinc-600">{t('refused')}</p>
          <InlineError error={serverError} testId="evaluate-server-error-detail" />
        </div>
      )}
      <Button type="submit" variant="primary" size="sm" disabled={busy || !datasets} data-testid="evaluate-start">
        {busy ? t('starting') : t('start')}
      </Button>
    </form>
  );
}
