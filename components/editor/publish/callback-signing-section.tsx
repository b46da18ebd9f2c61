'use client';
/**
 * The secret that signs this workflow's completion callbacks (`callbackUrl` of async runs): reveal, copy, rotate.
 * It is fetched only when an editor asks to see it (GET creates it on first read), and forgotten when hidden, so it
 * does not sit in the page while the panel is open for other reasons.
 */
import { useState } from 'react';
import { call } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ConfirmButton, CopyButton, InlineError, Section, formatTime } from './publish-ui';

interface CallbackSecret {
  secret: string;
  createdAt?: string;
}

const url = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/callback-secret`;

const SECRET_CLASS =
  'h-7 min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 font-mono text-[11px] text-zinc-900';

export function CallbackSigningSection({ workflowId }: { workflowId: string }) {
  const [shown, setShown] = useState<CallbackSecret | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [rotated, setRotated] = useState(false);

  const load = async (request: () => Promise<CallbackSecret>, afterRotate: boolean) => {
    setBusy(true);
    setError(null);
    try {
      setShown(await request());
      setRotated(afterRotate);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const reveal = () => load(() => call<CallbackSecret>('GET', url(workflowId)), false);
  const rotate = () => load(() => call<CallbackSecret>('POST', `${url(workflowId)}/rotate`), true);

  return (
    <Section
      title="Callback signing"
      testId="publish-callback-signing-section"
      aside={<span className="text-[11px] text-zinc-400">HMAC-SHA256</span>}
    >
      <p className="mb-2 text-[12px] text-zinc-600">
        Async runs with a <code className="font-mono text-[11px]">callbackUrl</code> POST their outcome there, signed
        with this workflow&apos;s secret: <code className="font-mono text-[11px]">X-PaiFlow-Signature</code> is{' '}
        <code className="font-mono text-[11px]">sha256=</code>HMAC-SHA256 of{' '}
        <code className="font-mono text-[11px]">&lt;X-PaiFlow-Timestamp&gt;.&lt;raw body&gt;</code>. Check it on your
        server and refuse timestamps more than 5 minutes old.
      </p>
      {shown ? (
        <div data-testid="callback-secret" data-rotated={rotated || undefined}>
          {rotated && (
            <p role="status" className="mb-1.5 text-[11px] text-amber-800" data-testid="callback-secret-rotated">
              New secret: callbacks from now on are signed with it. Update your receiver.
            </p>
          )}
          <div className="flex items-center gap-1.5">
            <input
              readOnly
              value={shown.secret}
              data-testid="callback-secret-value"
              aria-label="Callback signing secret"
              onFocus={(e) => e.currentTarget.select()}
              className={SECRET_CLASS}
            />
            <CopyButton text={shown.secret} testId="callback-secret-copy" />
            <Button size="sm" variant="ghost" data-testid="callback-secret-hide" onClick={() => setShown(null)}>
              Hide
            </Button>
          </div>
          {shown.createdAt && (
            <p className="mt-1 text-[11px] text-zinc-500" data-testid="callback-secret-created">
              Created {formatTime(shown.createdAt)}
            </p>
          )}
        </div>
      ) : (
        <Button size="sm" data-testid="callback-secret-reveal" disabled={busy} onClick={() => void reveal()}>
          {busy ? 'Loading…' : 'Reveal secret'}
        </Button>
      )}
      <div className="mt-2">
        <ConfirmButton
          label="Rotate secret"
          question="Rotate? Receivers using the old secret start refusing callbacks."
          confirmLabel="Rotate"
          testId="callback-secret-rotate"
          disabled={busy}
          onConfirm={rotate}
        />
      </div>
      <InlineError error={error} testId="callback-secret-error" />
    </Section>
  );
}
