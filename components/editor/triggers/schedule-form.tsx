'use client';
/**
 * Creating or changing a schedule: a cron expression (with presets) in a time zone, the fixed inputs of each run,
 * what happens to a run missed while no server was up, on/off. Once saved: the next fire times the server computed
 * and "Run now". API errors are shown beside the field their `path` names.
 */
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { JsonTextArea } from '../run/json-textarea';
import { InlineError, Section, inputClass } from '../publish/publish-ui';
import {
  ChoiceFieldset,
  Field,
  FieldError,
  NameField,
  Toggle,
  TriggerForm,
  labelClass,
  type Choice,
} from './form-controls';
import {
  browserTimeZone,
  changedFields,
  CRON_PRESETS,
  fieldError,
  parseJsonObject,
  timeZones,
  type StartInput,
} from './trigger-helpers';
import { LastRun, NextRuns } from './trigger-ui';
import { triggersApi, type TriggerView } from './triggers-api';
import { useAction, useFire } from './use-action';

type Misfire = 'run_once' | 'skip';

/** What happens to runs missed while no server was up; `msg` is the `triggers.schedule` messages. */
const misfireChoices = (msg: (key: string) => string): Array<Choice<Misfire>> => [
  { id: 'run_once', label: msg('misfireRunOnce'), hint: msg('misfireRunOnceHint') },
  { id: 'skip', label: msg('misfireSkip'), hint: msg('misfireSkipHint') },
];

const FIELDS = ['name', 'cron', 'timezone', 'inputs', 'misfire', 'enabled'];
const ZONES_LIST_ID = 'trigger-time-zones';

/** `{ input: "" }` per Start input, as a starting point for the fixed inputs. */
function inputsTemplate(inputs: StartInput[]): string {
  return JSON.stringify(Object.fromEntries(inputs.map((i) => [i.name, i.type === 'number' ? 0 : ''])), null, 2);
}

export function ScheduleForm({
  workflowId,
  trigger,
  inputs,
  readOnly,
  onSaved,
  refreshKey,
}: {
  workflowId: string;
  trigger?: TriggerView;
  inputs: StartInput[];
  readOnly: boolean;
  onSaved: (view: TriggerView) => void;
  refreshKey: number;
}) {
  const msg = useTranslations('triggers.schedule');
  const jsonMsg = useTranslations('triggers.json');
  const [name, setName] = useState(trigger?.name ?? '');
  const [cron, setCron] = useState(trigger?.cron ?? '0 9 * * 1-5');
  const [timezone, setTimezone] = useState(() => trigger?.timezone ?? browserTimeZone());
  const [inputsText, setInputsText] = useState(() =>
    trigger?.inputs ? JSON.stringify(trigger.inputs, null, 2) : inputsTemplate(inputs),
  );
  const [misfire, setMisfire] = useState<Misfire>(trigger?.misfire ?? 'run_once');
  const [enabled, setEnabled] = useState(trigger?.enabled ?? true);
  const { busy: saving, error, run } = useAction();
  const zones = useMemo(() => timeZones(), []);
  const parsed = parseJsonObject(inputsText, jsonMsg);

  const submit = async () => {
    if (!parsed.ok) return;
    const fields = { name: name.trim(), cron: cron.trim(), timezone: timezone.trim(), inputs: parsed.value, misfire };
    await run(async () =>
      onSaved(
        trigger
          ? // Only what changed: a PATCH naming cron, zone or enabled restarts the schedule's clock from now.
            await triggersApi.update(workflowId, trigger.id, changedFields({ ...fields, enabled }, trigger))
          : await triggersApi.create(workflowId, { type: 'schedule', ...fields, enabled }),
      ),
    );
  };

  return (
    <>
      <TriggerForm
        noun="schedule"
        editing={!!trigger}
        readOnly={readOnly}
        saving={saving}
        error={error}
        fields={FIELDS}
        canSubmit={parsed.ok}
        onSubmit={submit}
      >
        <NameField
          value={name}
          onChange={setName}
          placeholder={msg('namePlaceholder')}
          error={fieldError(error, 'name')}
        />

        <Field
          label={msg('cron')}
          hint={msg('cronHint', { example: '*/30 * * * * *' })}
          error={fieldError(error, 'cron')}
        >
          {({ id, describedBy }) => (
            <>
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={!!fieldError(error, 'cron') || undefined}
                className={`${inputClass} font-mono`}
                value={cron}
                maxLength={200}
                spellCheck={false}
                onChange={(e) => setCron(e.target.value)}
              />
              <div className="mt-1.5 flex flex-wrap gap-1" role="group" aria-label={msg('presetsAria')}>
                {CRON_PRESETS.map((p) => (
                  <Button
                    key={p.cron}
                    size="sm"
                    variant={cron.trim() === p.cron ? 'primary' : 'secondary'}
                    aria-pressed={cron.trim() === p.cron}
                    title={p.cron}
                    onClick={() => setCron(p.cron)}
                  >
                    {msg(`presets.${p.key}`)}
                  </Button>
                ))}
              </div>
            </>
          )}
        </Field>

        <Field label={msg('timezone')} hint={msg('timezoneHint')} error={fieldError(error, 'timezone')}>
          {({ id, describedBy }) => (
            <>
              <input
                id={id}
                aria-describedby={describedBy}
                list={ZONES_LIST_ID}
                className={inputClass}
                value={timezone}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setTimezone(e.target.value)}
              />
              <datalist id={ZONES_LIST_ID}>
                {zones.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </Field>

        <div className="mb-3">
          <span className={labelClass} aria-hidden>
            {msg('inputs')}
          </span>
          <JsonTextArea
            value={inputsText}
            onChange={setInputsText}
            label={msg('inputs')}
            testId="schedule-inputs"
            invalid={!parsed.ok || !!fieldError(error, 'inputs')}
            tone="amber"
          />
          <FieldError message={parsed.ok ? fieldError(error, 'inputs') : parsed.message} />
          <p className="mt-1 text-[11px] text-zinc-500">{msg('inputsHint')}</p>
        </div>

        <ChoiceFieldset
          legend={msg('misfire')}
          name="schedule-misfire"
          choices={misfireChoices(msg)}
          value={misfire}
          onChange={setMisfire}
          error={fieldError(error, 'misfire')}
        />

        <div className="mb-3 flex items-center gap-2 text-[12px] text-zinc-800">
          <Toggle checked={enabled} onChange={setEnabled} label={msg('enabled')} testId="schedule-enabled" />
          <span aria-hidden>{enabled ? msg('enabled') : msg('disabled')}</span>
        </div>
      </TriggerForm>
      {trigger && <ScheduleStatus trigger={trigger} readOnly={readOnly} refreshKey={refreshKey} />}
    </>
  );
}

/** A saved schedule: its next fire times (the server's answer) and "Run now". */
function ScheduleStatus({
  trigger,
  readOnly,
  refreshKey,
}: {
  trigger: TriggerView;
  readOnly: boolean;
  refreshKey: number;
}) {
  const msg = useTranslations('triggers.schedule');
  const { busy, error, runId, fire } = useFire(trigger);
  return (
    <Section
      title={msg('runs')}
      testId="schedule-status"
      aside={
        <Button size="sm" variant="run" disabled={readOnly || busy} onClick={() => void fire()}>
          {busy ? msg('starting') : msg('runNow')}
        </Button>
      }
    >
      <NextRuns trigger={trigger} />
      <div className="mt-2 space-y-0.5">
        <LastRun
          workflowId={trigger.workflowId}
          runId={trigger.lastRunId}
          at={trigger.lastRunAt}
          refreshKey={refreshKey}
          label={msg('lastScheduledRun')}
        />
        {runId && (
          <LastRun
            workflowId={trigger.workflowId}
            runId={runId}
            at={null}
            refreshKey={refreshKey}
            label={msg('startedNow')}
          />
        )}
      </div>
      <InlineError error={error} testId="schedule-run-error" />
    </Section>
  );
}
