'use client';
/**
 * Calling a saved webhook: its URL, its secret once (right after it was made), a curl call signed as the hook route
 * checks it, and "Send test", which fires the webhook from the editor with a payload through the same mapping.
 */
import { useState } from 'react';
import type { Graph } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { JsonTextArea } from '../run/json-textarea';
import { CopyButton, InlineError, Section } from '../publish/publish-ui';
import { buildWebhookCurl, fieldError, parseJsonObject, sampleBodyFor } from './trigger-helpers';
import { FieldError, labelClass } from './form-controls';
import { LastRun } from './trigger-ui';
import type { TriggerView } from './triggers-api';
import { useFire } from './use-action';

const URL_CLASS =
  'h-7 min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-100 px-2 font-mono text-[11px] text-zinc-800';

export function SecretNotice({ secret }: { secret: string }) {
  return (
    <div role="status" data-testid="webhook-secret" className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-[12px] font-medium text-amber-900">Copy the webhook secret now. It will not be shown again.</p>
      <p className="mt-0.5 text-[11px] text-amber-800">
        PaiFlow keeps it encrypted and never shows it again; if it is lost, generate a new one.
      </p>
      <div className="mt-2 flex items-center gap-1.5">
        <input
          readOnly
          value={secret}
          aria-label="Webhook secret"
          data-testid="webhook-secret-value"
          onFocus={(e) => e.currentTarget.select()}
          className="h-7 min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-2 font-mono text-[11px]"
        />
        <CopyButton text={secret} testId="copy-webhook-secret" label="Copy secret" />
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
  const url = trigger.url ?? trigger.path ?? '';
  const auth = trigger.auth ?? { type: 'none' as const, hasSecret: false };
  const body = sampleBodyFor(graph, trigger.mapping ?? {});
  const curl = buildWebhookCurl({ url, auth, secret, body });
  return (
    <>
      <Section title="Call it" testId="webhook-usage">
        {secret && <SecretNotice secret={secret} />}
        <div className="mb-2 flex min-w-0 items-center gap-1.5">
          <span className="text-[11px] font-semibold text-emerald-700">POST</span>
          <input
            readOnly
            value={url}
            title={url}
            aria-label="Webhook URL"
            data-testid="webhook-url"
            onFocus={(e) => e.currentTarget.select()}
            className={URL_CLASS}
          />
          <CopyButton text={url} testId="copy-webhook-url" label="Copy URL" />
        </div>
        {auth.type === 'none' && (
          <p role="alert" className="mb-2 text-[12px] font-medium text-red-700" data-testid="webhook-open-warning">
            No authentication: anyone with this URL can start runs.
          </p>
        )}
        <div className="flex items-center justify-between">
          <span className={labelClass}>
            curl
            {auth.type === 'hmac' && ' — signs the body with openssl'}
            {auth.type === 'header' && ` — secret in the ${auth.header} header`}
          </span>
          <CopyButton text={curl} testId="copy-webhook-curl" label="Copy curl" />
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
            Put the webhook’s secret in place of YOUR_WEBHOOK_SECRET (it is shown only when it is made).
          </p>
        )}
        <p className="mt-1 text-[11px] text-zinc-500">
          {trigger.response === 'wait'
            ? `Answers 200 { runId, status, outputs } when the run ends (202 { runId } if it takes longer).`
            : 'Answers 202 { runId } at once.'}{' '}
          Wrong or missing credentials: 401, and nothing is started.
        </p>
      </Section>
      <SendTest trigger={trigger} body={body} refreshKey={refreshKey} />
    </>
  );
}

function SendTest({ trigger, body, refreshKey }: { trigger: TriggerView; body: unknown; refreshKey: number }) {
  const [text, setText] = useState(() => JSON.stringify({ body, query: {}, headers: {} }, null, 2));
  const { busy, error, runId, fire } = useFire(trigger);
  const parsed = parseJsonObject(text);

  const send = async () => {
    if (parsed.ok) await fire(parsed.value);
  };

  return (
    <Section title="Send test" testId="webhook-send-test">
      <p className="mb-1.5 text-[11px] text-zinc-500">
        Runs the published version with this request through the mapping (no signature needed from the editor).
      </p>
      <JsonTextArea
        value={text}
        onChange={setText}
        label="Test request (JSON: body, query, headers)"
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
          <LastRun workflowId={trigger.workflowId} runId={runId} at={null} refreshKey={refreshKey} label="Test run" />
        ) : (
          <span />
        )}
        <Button size="sm" variant="primary" disabled={busy || !parsed.ok} onClick={() => void send()}>
          {busy ? 'Sending…' : 'Send test'}
        </Button>
      </div>
    </Section>
  );
}
