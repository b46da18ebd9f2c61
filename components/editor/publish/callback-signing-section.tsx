'use client';
/**
 * The secret that signs this workflow's completion callbacks (`callbackUrl` of async runs): reveal, copy, rotate.
 * It is fetched only when an editor asks to see it (GET creates it on first read), and forgotten when hidden, so it
 * does not sit in the page while the panel is open for other reasons.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { call } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ConfirmButton, CopyButton, InlineError, Section, useFormatTime } from './publish-ui';

interface CallbackSecret {
  secret: string;
  createdAt?: string;
}

const url = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/callback-secret`;

const SECRET_CLASS =
  'h-7 min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 font-mono text-[11px] text-zinc-900';

export function CallbackSigningSection({ workflowId }: { workflowId: string }) {
  const t = useTranslations('publish.callback');
  const formatTime = useFormatTime();
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
      title={t('title')}
      testId="publish-callback-signing-section"
      // i18n-exempt: the signature algorithm's name, the same in every language
      aside={<span className="text-[11px] text-zinc-400">HMAC-SHA256</span>}
    >
      <p className="mb-2 text-[12px] text-zinc-600">
        {t.rich('intro', {
          signed: `<X-PaiFlow-Timestamp>.<${t('rawBody')}>`,
          code: (c) => <code className="font-mono text-[11px]">{c}</code>,
        })}
      </p>
      {shown ? (
        <div data-testid="callback-secret" data-rotated={rotated || undefined}>
          {rotated && (
            <p role="status" className="mb-1.5 text-[11px] text-amber-800" data-testid="callback-secret-rotated">
              {t('rotated')}
            </p>
          )}
          <div className="flex items-center gap-1.5">
            <input
              readOnly
              value={shown.secret}
              data-testid="callback-secret-value"
              aria-label={t('secretAria')}
              onFocus={(e) => e.currentTarget.select()}
              className={SECRET_CLASS}
            />
            <CopyButton text={shown.secret} testId="callback-secret-copy" />
            <Button size="sm" variant="ghost" data-testid="callback-secret-hide" onClick={() => setShown(null)}>
              {t('hide')}
            </Button>
          </div>
          {shown.createdAt && (
            <p className="mt-1 text-[11px] text-zinc-500" data-testid="callback-secret-created">
              {t('created', { time: formatTime(shown.createdAt) })}
            </p>
          )}
        </div>
      ) : (
        <Button size="sm" data-testid="callback-secret-reveal" disabled={busy} onClick={() => void reveal()}>
          {busy ? t('loading') : t('reveal')}
        </Button>
      )}
      <div className="mt-2">
        <ConfirmButton
          label={t('rotate')}
          question={t('rotateQuestion')}
          confirmLabel={t('rotateConfirm')}
          testId="callback-secret-rotate"
          disabled={busy}
          onConfirm={rotate}
        />
      </div>
      <InlineError error={error} testId="callback-secret-error" />
    </Section>
  );
}
