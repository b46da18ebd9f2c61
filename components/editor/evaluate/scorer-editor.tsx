'use client';
/**
 * One scorer of the Evaluate form: its name, type and the End output it reads, then the options its type needs
 * (scorer-drafts.ts turns them into the API's body). A mistake is shown under the input it is about.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { CredentialView } from '@/components/api/auth-api';
import { Field, INPUT, TEXTAREA } from './form-controls';
import { READS_OUTPUT, SCORER_TYPES, type DraftError, type ScorerDraft, type ScorerType } from './scorer-drafts';

type Patch = (patch: Partial<ScorerDraft>) => void;

export function ScorerEditor({
  draft,
  index,
  outputs,
  credentials,
  errors,
  onChange,
  onRemove,
  footer,
}: {
  draft: ScorerDraft;
  index: number;
  outputs: string[];
  credentials: CredentialView[];
  errors: DraftError[];
  onChange: Patch;
  onRemove?: () => void;
  /** More inputs at the foot of the scorer's box (the publish gate's limits). */
  footer?: ReactNode;
}) {
  const t = useTranslations('evaluate.scorer');
  const te = useTranslations('evaluate.errors');
  const errorOf = (option: string) => {
    const e = errors.find((x) => x.option === option);
    return e ? (e.message ?? te(e.key)) : undefined;
  };
  const text = (option: keyof ScorerDraft, label: string, placeholder?: string, className = '') => (
    <Field label={label} error={errorOf(option)} errorTestId="scorer-error" className={className}>
      <input
        className={INPUT}
        value={String(draft[option])}
        placeholder={placeholder}
        data-testid={`scorer-${option}`}
        onChange={(e) => onChange({ [option]: e.target.value })}
      />
    </Field>
  );
  const threshold = (fallback: string) => text('threshold', t('threshold'), t('defaultValue', { value: fallback }));

  const changeType = (type: ScorerType) => {
    // A name still the type's own follows the new type; one the user chose stays.
    const renamed = draft.name === draft.type || !draft.name.trim() ? { name: type } : {};
    onChange({ type, ...renamed });
  };

  return (
    <div
      className="rounded-md border border-zinc-200 bg-zinc-50/60 p-2"
      data-testid="scorer"
      data-index={index}
      data-type={draft.type}
    >
      <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2">
        {text('name', t('name'))}
        <Field label={t('type')}>
          <select
            className={INPUT}
            value={draft.type}
            data-testid="scorer-type"
            onChange={(e) => changeType(e.target.value as ScorerType)}
          >
            {SCORER_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`types.${type}`)}
              </option>
            ))}
          </select>
        </Field>
        {READS_OUTPUT.has(draft.type) ? (
          <Field label={t('field')}>
            <select
              className={INPUT}
              value={draft.field}
              data-testid="scorer-field"
              onChange={(e) => onChange({ field: e.target.value })}
            >
              {!outputs.length && <option value="">{t('noOutputs')}</option>}
              {draft.field && !outputs.includes(draft.field) && <option value={draft.field}>{draft.field}</option>}
              {outputs.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <span />
        )}
        <button
          type="button"
          className="mt-4 h-7 rounded px-2 text-[11px] text-zinc-500 hover:bg-zinc-200 disabled:opacity-40"
          onClick={onRemove}
          disabled={!onRemove}
          aria-label={t('removeLabel', { name: draft.name })}
          data-testid="scorer-remove"
        >
          {t('remove')}
        </button>
      </div>
      <Options
        draft={draft}
        credentials={credentials}
        onChange={onChange}
        text={text}
        threshold={threshold}
        errorOf={errorOf}
      />
      {footer}
    </div>
  );
}

function Options({
  draft,
  credentials,
  onChange,
  text,
  threshold,
  errorOf,
}: {
  draft: ScorerDraft;
  credentials: CredentialView[];
  onChange: Patch;
  text: (option: keyof ScorerDraft, label: string, placeholder?: string, className?: string) => ReactNode;
  threshold: (fallback: string) => ReactNode;
  errorOf: (option: string) => string | undefined;
}) {
  const t = useTranslations('evaluate.scorer');
  const caseSensitive = (
    <label className="mt-4 flex items-center gap-1.5 text-[12px] text-zinc-700">
      <input
        type="checkbox"
        checked={draft.caseSensitive}
        data-testid="scorer-caseSensitive"
        onChange={(e) => onChange({ caseSensitive: e.target.checked })}
      />
      {t('caseSensitive')}
    </label>
  );
  const row = (children: ReactNode) => <div className="mt-2 grid grid-cols-3 items-start gap-2">{children}</div>;
  switch (draft.type) {
    case 'exact':
      return row(caseSensitive);
    case 'contains':
      return row(
        <>
          {text('value', t('value'), t('valueHint'), 'col-span-2')}
          {caseSensitive}
        </>,
      );
    case 'regex':
      return row(text('pattern', t('pattern'), '^(urgent|else)$', 'col-span-3'));
    case 'numeric':
      return row(text('tolerance', t('tolerance'), t('defaultValue', { value: 0 })));
    case 'similarity':
      return row(threshold('0.8'));
    case 'latency':
      return row(text('maxMs', t('maxMs'), '2000'));
    case 'cost':
      return row(text('maxUsd', t('maxUsd'), '0.01'));
    case 'json_schema':
      return <SchemaOption draft={draft} onChange={onChange} error={errorOf('schema')} />;
    case 'retrieval':
      return row(
        <>
          {text('sourcesField', t('sourcesField'), t('defaultValue', { value: 'sources' }))}
          {text('k', t('k'), t('defaultValue', { value: 5 }))}
          <label className="flex min-w-0 flex-col gap-0.5">
            <span className="text-[10px] font-medium uppercase tracking-wide text-zinc-500">{t('metric')}</span>
            <select
              className={INPUT}
              value={draft.metric}
              data-testid="scorer-metric"
              onChange={(e) => onChange({ metric: e.target.value as ScorerDraft['metric'] })}
            >
              <option value="recall">{t('metrics.recall')}</option>
              <option value="mrr">{t('metrics.mrr')}</option>
            </select>
          </label>
          {threshold(draft.metric === 'mrr' ? '0.5' : '1')}
        </>,
      );
    case 'llm_judge':
      return (
        <>
          <JudgeRubric draft={draft} onChange={onChange} error={errorOf('rubric')} />
          {row(
            <>
              {text('model', t('model'), 'gpt-4o-mini')}
              <label className="flex min-w-0 flex-col gap-0.5">
                <span className="text-[10px] font-medium uppercase tracking-wide text-zinc-500">{t('credential')}</span>
                <select
                  className={INPUT}
                  value={draft.credentialId}
                  data-testid="scorer-credentialId"
                  onChange={(e) => onChange({ credentialId: e.target.value })}
                >
                  <option value="">{t('serverModel')}</option>
                  {credentials
                    .filter((c) => c.type === 'openai')
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name} · {c.masked}
                      </option>
                    ))}
                </select>
              </label>
              {threshold('0.7')}
            </>,
          )}
        </>
      );
  }
}

function SchemaOption({ draft, onChange, error }: { draft: ScorerDraft; onChange: Patch; error?: string }) {
  const t = useTranslations('evaluate.scorer');
  return (
    <div className="mt-2">
      <Field label={t('schema')} error={error} errorTestId="scorer-error">
        <textarea
          className={TEXTAREA}
          rows={4}
          spellCheck={false}
          value={draft.schema}
          data-testid="scorer-schema"
          onChange={(e) => onChange({ schema: e.target.value })}
        />
      </Field>
    </div>
  );
}

function JudgeRubric({ draft, onChange, error }: { draft: ScorerDraft; onChange: Patch; error?: string }) {
  const t = useTranslations('evaluate.scorer');
  return (
    <div className="mt-2">
      <Field label={t('rubric')} error={error} errorTestId="scorer-error">
        <textarea
          className={TEXTAREA}
          rows={2}
          value={draft.rubric}
          placeholder={t('rubricHint')}
          data-testid="scorer-rubric"
          onChange={(e) => onChange({ rubric: e.target.value })}
        />
      </Field>
    </div>
  );
}
