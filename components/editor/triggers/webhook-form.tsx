'use client';
/**
 * Creating or changing a webhook: how a caller proves itself (HMAC signature, a secret header, or nothing — warned),
 * its secret (generated, or the user's own), how the request fills each Start input, and whether the call waits for
 * the run's outputs. API errors are shown beside the field their `path` names.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { inputClass } from '../publish/publish-ui';
import { ChoiceFieldset, Field, NameField, TriggerForm, type Choice } from './form-controls';
import {
  changedFields,
  DEFAULT_SECRET_HEADER,
  fieldError,
  mappingFromRows,
  mappingRows,
  newWebhookSecret,
  type MappingRow,
  type StartInput,
} from './trigger-helpers';
import { MappingEditor } from './mapping-editor';
import { triggersApi, type TriggerPatch, type TriggerView } from './triggers-api';
import { useAction } from './use-action';

type AuthType = 'hmac' | 'header' | 'none';
type SecretMode = 'keep' | 'generate' | 'own';
type Response = 'async' | 'wait';

/** A translator over the `triggers.webhook` messages. */
type Msg = (key: string, values?: Record<string, string>) => string;

const authChoices = (msg: Msg): Array<Choice<AuthType>> => [
  {
    id: 'hmac',
    label: msg('authHmac'),
    hint: msg('authHmacHint', { header: 'X-Signature: sha256=<hex HMAC-SHA256>' }),
  },
  { id: 'header', label: msg('authHeader'), hint: msg('authHeaderHint') },
  { id: 'none', label: msg('authNone'), hint: msg('authNoneHint') },
];

const responseChoices = (msg: Msg): Array<Choice<Response>> => [
  { id: 'async', label: msg('responseAsync') },
  { id: 'wait', label: msg('responseWait') },
];

const NO_AUTH_WARNING_CLASS =
  'mt-2 rounded-md border border-red-300 bg-red-50 px-2.5 py-1.5 text-[12px] font-medium text-red-800';

const FIELDS = ['name', 'auth', 'mapping', 'response', 'timeoutMs'];

/** Keeping the stored secret is offered only while there is one for this kind of check. */
function secretChoices(canKeep: boolean, hasSecret: boolean, msg: Msg): Array<Choice<SecretMode>> {
  return [
    ...(canKeep ? [{ id: 'keep' as const, label: msg('secretKeep') }] : []),
    { id: 'generate', label: hasSecret ? msg('secretGenerateNew') : msg('secretGenerate') },
    { id: 'own', label: msg('secretOwn') },
  ];
}

/** A new kind of check, another header, or a new secret (given or made here). */
function authChanged(stored: TriggerView, auth: { type: AuthType; header?: string; secret?: string }): boolean {
  return (
    auth.type !== stored.auth?.type ||
    auth.secret !== undefined ||
    (auth.type === 'header' && auth.header !== stored.auth?.header)
  );
}

export function WebhookForm({
  workflowId,
  trigger,
  inputs,
  readOnly,
  onSaved,
}: {
  workflowId: string;
  /** The stored webhook when editing; absent when creating. */
  trigger?: TriggerView;
  /** The draft's Start inputs (one mapping row each). */
  inputs: StartInput[];
  /** Not an admin: webhooks start runs like an API key, so only admins change them. */
  readOnly: boolean;
  onSaved: (view: TriggerView) => void;
}) {
  const msg = useTranslations('triggers.webhook');
  const storedAuth = trigger?.auth?.type;
  const [name, setName] = useState(trigger?.name ?? '');
  const [authType, setAuthType] = useState<AuthType>(storedAuth ?? 'hmac');
  const [header, setHeader] = useState(trigger?.auth?.header ?? DEFAULT_SECRET_HEADER);
  const [secretMode, setSecretMode] = useState<SecretMode>(trigger?.auth?.hasSecret ? 'keep' : 'generate');
  const [ownSecret, setOwnSecret] = useState('');
  const [rows, setRows] = useState<MappingRow[]>(() => mappingRows(inputs, trigger?.mapping));
  const [response, setResponse] = useState<Response>(trigger?.response ?? 'async');
  const [timeoutSec, setTimeoutSec] = useState(trigger?.timeoutMs ? String(trigger.timeoutMs / 1000) : '');
  const { busy: saving, error, run } = useAction();

  // The stored secret can only be kept while the kind of check stays the same.
  const canKeep = !!trigger?.auth?.hasSecret && authType === storedAuth;
  const mode: SecretMode = secretMode === 'keep' && !canKeep ? 'generate' : secretMode;

  const submit = async () => {
    const auth: { type: AuthType; header?: string; secret?: string } = { type: authType };
    if (authType === 'header') auth.header = header.trim() || DEFAULT_SECRET_HEADER;
    if (authType !== 'none' && mode === 'own') auth.secret = ownSecret;
    // Same kind of check without a secret keeps the stored one, so a new one is made here.
    if (authType !== 'none' && mode === 'generate' && trigger && authType === storedAuth)
      auth.secret = newWebhookSecret();
    const seconds = Number(timeoutSec);
    const timeoutMs =
      response === 'wait' && timeoutSec.trim() && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null;
    const mapping = mappingFromRows(rows);
    await run(async () => {
      const view = trigger
        ? await triggersApi.update(workflowId, trigger.id, {
            // Only what changed, so the audit log names what the user changed.
            ...changedFields({ name: name.trim(), mapping, response }, trigger),
            ...(authChanged(trigger, auth) ? { auth } : {}),
            ...((timeoutMs ?? undefined) !== trigger.timeoutMs ? { timeoutMs } : {}),
          } satisfies TriggerPatch)
        : await triggersApi.create(workflowId, {
            type: 'webhook',
            name: name.trim(),
            auth,
            mapping,
            response,
            ...(timeoutMs !== null ? { timeoutMs } : {}),
          });
      onSaved(view);
      setOwnSecret('');
      if (view.auth?.hasSecret) setSecretMode('keep');
    });
  };

  return (
    <TriggerForm
      noun="webhook"
      editing={!!trigger}
      readOnly={readOnly}
      saving={saving}
      error={error}
      fields={FIELDS}
      onSubmit={submit}
    >
      <NameField
        value={name}
        onChange={setName}
        placeholder={msg('namePlaceholder')}
        error={fieldError(error, 'name')}
      />

      <ChoiceFieldset
        legend={msg('auth')}
        name="webhook-auth"
        choices={authChoices(msg)}
        value={authType}
        onChange={setAuthType}
        error={fieldError(error, 'auth.type')}
      >
        {authType === 'none' && (
          <p role="alert" data-testid="webhook-no-auth-warning" className={NO_AUTH_WARNING_CLASS}>
            {msg('noAuthWarning')}
          </p>
        )}
      </ChoiceFieldset>

      {authType === 'header' && (
        <Field label={msg('headerName')} hint={msg('headerNameHint')} error={fieldError(error, 'auth.header')}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              className={`${inputClass} font-mono`}
              value={header}
              maxLength={100}
              onChange={(e) => setHeader(e.target.value)}
            />
          )}
        </Field>
      )}

      {authType !== 'none' && (
        <ChoiceFieldset
          legend={msg('secret')}
          name="webhook-secret"
          choices={secretChoices(canKeep, !!trigger?.auth?.hasSecret, msg)}
          value={mode}
          onChange={setSecretMode}
          error={fieldError(error, 'auth.secret')}
          control={
            mode === 'own' && (
              <input
                type="password"
                aria-label={msg('ownSecretAria')}
                autoComplete="new-password"
                className={`${inputClass} mt-1.5 font-mono`}
                value={ownSecret}
                placeholder={msg('ownSecretPlaceholder')}
                onChange={(e) => setOwnSecret(e.target.value)}
              />
            )
          }
        >
          {mode !== 'keep' && <p className="mt-1 text-[11px] text-zinc-500">{msg('secretShownOnce')}</p>}
        </ChoiceFieldset>
      )}

      <MappingEditor rows={rows} onRows={setRows} error={error} />

      <ChoiceFieldset
        legend={msg('response')}
        name="webhook-response"
        choices={responseChoices(msg)}
        value={response}
        onChange={setResponse}
        error={fieldError(error, 'response')}
      >
        {response === 'wait' && (
          <div className="mt-2 pl-5">
            <Field label={msg('timeout')} hint={msg('timeoutHint')} error={fieldError(error, 'timeoutMs')}>
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  type="number"
                  min={1}
                  max={300}
                  className={`${inputClass} w-28`}
                  value={timeoutSec}
                  onChange={(e) => setTimeoutSec(e.target.value)}
                />
              )}
            </Field>
          </div>
        )}
      </ChoiceFieldset>
    </TriggerForm>
  );
}
