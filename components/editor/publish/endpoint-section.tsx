'use client';
/**
 * Whether and where the workflow is published; publish (first time with an optional slug), publish a new version,
 * unpublish.
 */
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import type { PublishStatus } from './publish-api';
import { ConfirmButton, CopyButton, InlineError, Section, inputClass } from './publish-ui';

const ENDPOINT_CLASS = 'min-w-0 flex-1 truncate rounded bg-zinc-100 px-1.5 py-1 font-mono text-[11px] text-zinc-800';

export function EndpointSection({
  status,
  draftUnchanged,
  busy,
  error,
  onPublish,
  onUnpublish,
  children,
}: {
  status: PublishStatus;
  /** The saved draft equals the current version (nothing new to publish); null when unknown. */
  draftUnchanged: boolean | null;
  busy: boolean;
  error: unknown;
  onPublish: (slug?: string) => void;
  onUnpublish: () => Promise<void>;
  /** Shown under the buttons: what the publish gate said, when it refused the draft. */
  children?: ReactNode;
}) {
  const t = useTranslations('publish.endpoint');
  const [slug, setSlug] = useState('');
  const neverPublished = !status.slug;

  return (
    <Section
      title={t('title')}
      testId="publish-endpoint-section"
      aside={
        <span
          data-testid="publish-state"
          data-published={status.published}
          className={
            'rounded-full px-2 py-0.5 text-[11px] font-medium ' +
            (status.published ? 'bg-emerald-100 text-emerald-800' : 'bg-zinc-100 text-zinc-600')
          }
        >
          {status.published
            ? t('statePublished', { version: String(status.version ?? '') })
            : neverPublished
              ? t('stateNotPublished')
              : t('stateUnpublished')}
        </span>
      }
    >
      {status.slug && (
        <dl className="mb-3 grid grid-cols-[5.5rem_1fr] items-center gap-x-2 gap-y-1.5 text-[12px]">
          <dt className="text-zinc-500">{t('slug')}</dt>
          <dd className="font-mono text-zinc-900" data-testid="publish-slug">
            {status.slug}
          </dd>
          <dt className="text-zinc-500">{t('version')}</dt>
          <dd className="text-zinc-900" data-testid="publish-version" data-version={status.version ?? ''}>
            {status.version ? (
              t('versionCurrent', { version: String(status.version) })
            ) : (
              <span className="text-zinc-500">{t('versionNone')}</span>
            )}
          </dd>
          {status.endpoint && (
            <>
              <dt className="text-zinc-500">{t('endpoint')}</dt>
              <dd className="flex min-w-0 items-center gap-1.5">
                <code className={ENDPOINT_CLASS} title={status.endpoint} data-testid="publish-endpoint">
                  <span className="text-emerald-700">POST</span> {status.endpoint}
                </code>
                <CopyButton text={status.endpoint} testId="copy-endpoint" />
              </dd>
            </>
          )}
          {status.openapiUrl && (
            <>
              {/* i18n-exempt: the specification's name, the same in every language */}
              <dt className="text-zinc-500">OpenAPI</dt>
              <dd className="min-w-0 truncate">
                <a
                  href={status.openapiUrl}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="publish-openapi"
                  className="font-mono text-[11px] text-indigo-600 hover:underline"
                >
                  {status.openapiUrl}
                </a>
              </dd>
            </>
          )}
        </dl>
      )}

      {neverPublished ? (
        <div className="space-y-2">
          <p className="text-[12px] text-zinc-600">
            {t.rich('firstPublish', {
              path: '/api/v1/workflows/<slug>/run',
              code: (c) => <code className="font-mono text-[11px]">{c}</code>,
            })}
          </p>
          <label className="block text-[12px] font-medium text-zinc-700" htmlFor="publish-slug-input">
            {t('slug')} <span className="font-normal text-zinc-400">{t('slugHint')}</span>
          </label>
          <div className="flex gap-2">
            <input
              id="publish-slug-input"
              data-testid="publish-slug-input"
              className={`${inputClass} font-mono`}
              value={slug}
              // i18n-exempt: an example slug (lower-case Latin letters only), not prose
              placeholder="my-workflow"
              onChange={(e) => setSlug(e.target.value.trim())}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !busy) onPublish(slug || undefined);
              }}
            />
            <Button
              variant="primary"
              size="sm"
              data-testid="publish-submit"
              disabled={busy}
              onClick={() => onPublish(slug || undefined)}
            >
              {busy ? t('publishing') : t('publish')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="primary"
            size="sm"
            data-testid="publish-submit"
            disabled={busy}
            onClick={() => onPublish()}
            title={t('publishTitle')}
          >
            {busy ? t('publishing') : status.published ? t('publishNewVersion') : t('publishDraft')}
          </Button>
          {status.published && (
            <ConfirmButton
              label={t('unpublish')}
              question={t('unpublishQuestion')}
              confirmLabel={t('unpublish')}
              testId="unpublish"
              disabled={busy}
              onConfirm={onUnpublish}
            />
          )}
          {draftUnchanged && status.published && (
            <span className="text-[11px] text-zinc-500" data-testid="publish-draft-unchanged">
              {t('draftUnchanged', { version: String(status.version ?? '') })}
            </span>
          )}
          {!status.published && <span className="w-full text-[11px] text-zinc-500">{t('keptNote')}</span>}
        </div>
      )}
      <InlineError error={error} testId="publish-error" />
      {children}
    </Section>
  );
}
