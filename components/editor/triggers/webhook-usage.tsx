'use client';
/**
 * Calling a saved webhook: its URL, its secret once (right after it was made), a curl call signed as the hook route
 * checks it, and "Send test", which fires the webhook from the editor with a payload through the same mapping.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { Graph } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { JsonTextArea } from '../run/json-textarea';
import { CopyButton, InlineError, Section } from '../publish/publish-ui';
import { buildWebhookCurl, fieldError, parseJsonObject, sampleBodyFor, SECRET_PLACEHOLDER } from './trigger-helpers';
import { FieldError, labelClass } from './form-controls';
import { LastRun } from './trigger-ui';
import type { TriggerView } from './triggers-api';
import { useFire } from './use-action';

const URL_CLASS =
  'h-7 min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-100 px-2 font-mono text-[11px] text-zinc-800';

export function SecretNotice({ secret }: { secret: string }) {
  const msg = useTranslations('triggers.usage');
  return (
    <div role="status" data-testid="webhook-secret" className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-[12px] font-medium text-amber-900">{msg('secretTitle')}</p>
      <p className="mt-0.5 text-[11px] text-amber-800">{msg('secretHint')}</p>
      <div className="mt-2 flex items-center gap-1.5">
        <input
          readOnly
          value={secret}
          aria-label={msg('secretAria')}
          data-testid="webhook-secret-value"
          onFocus={(e) => e.currentTarget.select()}
          className="h-7 min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-2 font-mono text-[11px]"
        />
        <CopyButton text={secret} testId="copy-webhook-secret" label={msg('copySecret')} />
      </div>
    </div>
  );
}

export function WebhookUsage({
  trigger,
  secret,
  graph,
  refreshKey,
}: {
  trigger: TriggerView;
  /** The secret while it is shown (this once), else null. */
  secret: string | null;
  graph: Pick<Graph, 'nodes'>;
  refreshKey: number;
}) {
  const msg = useTranslations('triggers.usage');
  const url = trigger.url ?? trigger.path ?? '';
  const auth = trigger.auth ?? { type: 'none' as const, hasSecret: false };
  const body = sampleBodyFor(graph, trigger.mapping ?? {});
  const curl = buildWebhookCurl({ url, auth, secret, body });
  return (
    <>
      <Section title={msg('title')} testId="webhook-usage">
        {secret && <SecretNotice secret={secret} />}
        <div className="mb-2 flex min-w-0 items-center gap-1.5">
          <span className="text-[11px] font-semibold text-emerald-700">POST</span>
          <input
            readOnly
            value={url}
            title={url}
            aria-label={msg('urlAria')}
            data-testid="webhook-url"
            onFocus={(e) => e.currentTarget.select()}
            className={URL_CLASS}
          />
          <CopyButton text={url} testId="copy-webhook-url" label={msg('copyUrl')} />
        </div>
        {auth.type === 'none' && (
          <p role="alert" className="mb-2 text-[12px] font-medium text-red-700" data-testid="webhook-open-warning">
            {msg('openWarning')}
          </p>
        )}
        <div className="flex items-center justify-between">
          <span className={labelClass}>
            {auth.type === 'hmac'
              ? msg('curlHmac')
              : auth.type === 'header'
                ? msg('curlHeader', { header: auth.header ?? '' })
                : 'curl'}
          </span>
          <CopyButton text={curl} testId="copy-webhook-curl" label={msg('copyCurl')} />
        </div>
        <pre
          data-testid="webhook-curl"
          className={
            'max-h-60 overflow-auto rounded-md bg-zinc-900 p-3 ' + 'font-mono text-[11px] leading-relaxed text-zinc-100'
          }
        >
          {curl}
        </pre>
        {!secret && auth.type !== 'none' && (
          <p className="mt-1 text-[11px] text-zinc-500">
            {msg('secretPlaceholder', { placeholder: SECRET_PLACEHOLDER })}
          </p>
        )}
        <p className="mt-1 text-[11px] text-zinc-500">
          {trigger.response === 'wait'
            ? msg('answersWait', { outputs: '{ runId, status, outputs }', runId: '{ runId }' })
            : msg('answersAsync', { runId: '{ runId }' })}{' '}
          {msg('wrongCredentials')}
        </p>
      </Section>
      <SendTest trigger={trigger} body={body} refreshKey={refreshKey} />
    </>
  );
}

function SendTest({ trigger, body, refreshKey }: { trigger: TriggerView; body: unknown; refreshKey: number }) {
  const [text, setText] = useState(() => JSON.stringify({ body, query: {}, headers: {} }, null, 2));
  const msg = useTranslations('triggers.usage');
  const jsonMsg = useTranslations('triggers.json');
  const { busy, error, runId, fire } = useFire(trigger);
  const parsed = parseJsonObject(text, jsonMsg);

  const send = async () => {
    if (parsed.ok) await fire(parsed.value);
  };

  return (
    <Section title={msg('sendTest')} testId="webhook-send-test">
      <p className="mb-1.5 text-[11px] text-zinc-500">{msg('sendTestIntro')}</p>
      <JsonTextArea
        value={text}
        onChange={setText}
        label={msg('testRequest')}
        testId="webhook-test-payload"
        invalid={!parsed.ok}
        tone="amber"
      />
      <FieldError message={parsed.ok ? null : parsed.message} />
      <FieldError message={fieldError(error, 'inputs') ?? fieldError(error, 'body')} />
      {error != null && !fieldError(error, 'inputs') && !fieldError(error, 'body') && (
        <InlineError error={error} testId="webhook-test-error" />
      )}
      <div className="mt-2 flex items-center justify-between gap-2">
        {runId ? (
          <LastRun
            workflowId={trigger.workflowId}
            runId={runId}
            at={null}
            refreshKey={refreshKey}
            label={msg('testRun')}
          />
        ) : (
          <span />
        )}
        <Button size="sm" variant="primary" disabled={busy || !parsed.ok} onClick={() => void send()}>
          {busy ? msg('sending') : msg('sendTest')}
        </Button>
      </div>
    </Section>
  );
}
