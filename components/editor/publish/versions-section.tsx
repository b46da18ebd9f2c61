'use client';
/** The published versions, newest first: when, how big, what the draft changed since, and rollback ("Make current"). */
import { useFormatter, useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import type { GraphDiff, VersionInfo } from './publish-api';
import { InlineError, Section, useFormatTime } from './publish-ui';

/** The `publish.diff` messages: `useTranslations('publish.diff')` in a component. */
export type DiffMessages = (key: string, values?: { count: number }) => string;

/** "2 nodes added, 1 node changed, 1 edge removed" — or "no changes" — in the UI's language. */
export function summarizeDiff(d: GraphDiff, t: DiffMessages): string {
  if (d.same) return t('same');
  const parts: string[] = [];
  if (d.added.length) parts.push(t('nodesAdded', { count: d.added.length }));
  if (d.removed.length) parts.push(t('nodesRemoved', { count: d.removed.length }));
  if (d.changed.length) parts.push(t('nodesChanged', { count: d.changed.length }));
  if (d.edgesAdded) parts.push(t('edgesAdded', { count: d.edgesAdded }));
  if (d.edgesRemoved) parts.push(t('edgesRemoved', { count: d.edgesRemoved }));
  if (d.engineChanged) parts.push(t('engineChanged'));
  if (d.conversationVariablesChanged) parts.push(t('conversationVariablesChanged'));
  return parts.join(t('separator'));
}

function DiffDetails({ diff, nodeLabel }: { diff: GraphDiff; nodeLabel: (id: string) => string }) {
  const t = useTranslations('publish.versions');
  const rows: Array<[string, string[], string]> = [
    [t('added'), diff.added, 'text-emerald-700'],
    [t('removed'), diff.removed, 'text-red-700'],
    [t('changed'), diff.changed, 'text-amber-700'],
  ];
  return (
    <ul
      className="mt-1 space-y-0.5 rounded-md bg-zinc-50 px-2.5 py-1.5 text-[11px] text-zinc-700"
      data-testid="version-changes-details"
    >
      {rows
        .filter(([, ids]) => ids.length)
        .map(([label, ids, cls]) => (
          <li key={label}>
            <span className={`font-medium ${cls}`}>{label}</span> {ids.map(nodeLabel).join(', ')}
          </li>
        ))}
      {(diff.edgesAdded > 0 || diff.edgesRemoved > 0) && (
        <li>
          <span className="font-medium">{t('connections')}</span>{' '}
          {[diff.edgesAdded && `+${diff.edgesAdded}`, diff.edgesRemoved && `−${diff.edgesRemoved}`]
            .filter(Boolean)
            .join(' ')}
        </li>
      )}
      {diff.engineChanged && (
        <li>{t.rich('engineDiffers', { b: (c: ReactNode) => <span className="font-medium">{c}</span> })}</li>
      )}
    </ul>
  );
}

function VersionRow({
  v,
  busy,
  disabled,
  onRollback,
  nodeLabel,
}: {
  v: VersionInfo;
  busy: boolean;
  disabled: boolean;
  onRollback: () => void;
  nodeLabel: (id: string) => string;
}) {
  const t = useTranslations('publish.versions');
  const td = useTranslations('publish.diff');
  const formatTime = useFormatTime();
  const [open, setOpen] = useState(false);
  const d = v.draftChanges;
  return (
    <li
      data-testid="version-row"
      data-version={v.version}
      data-current={v.current}
      className={`rounded-md border px-3 py-2 ${v.current ? 'border-emerald-300 bg-emerald-50/40' : 'border-zinc-200'}`}
    >
      <div className="flex items-center gap-2 text-[12px]">
        <span className="font-semibold text-zinc-900" data-testid="version-number">
          {/* i18n-exempt: the version notation v<n>, the same in every language */}v{v.version}
        </span>
        {v.current && (
          <span
            data-testid="version-current-badge"
            className="rounded-full bg-emerald-600 px-1.5 py-px text-[10px] font-medium text-white"
          >
            {t('current')}
          </span>
        )}
        <span className="text-zinc-500" data-testid="version-created">
          {formatTime(v.createdAt)}
        </span>
        <span className="text-zinc-400">·</span>
        <span className="text-zinc-500" data-testid="version-node-count">
          {t('nodeCount', { count: v.nodeCount })}
        </span>
        <span className="flex-1" />
        {!v.current && (
          <Button
            size="sm"
            data-testid="version-make-current"
            disabled={disabled}
            onClick={onRollback}
            title={t('makeCurrentTitle')}
          >
            {busy ? '…' : t('makeCurrent')}
          </Button>
        )}
      </div>
      <div className="mt-1 text-[11px]">
        {d.same ? (
          <span className="text-zinc-500" data-testid="version-changes" data-same="true">
            {t('draftSame')}
          </span>
        ) : (
          <button
            type="button"
            data-testid="version-changes"
            data-same="false"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            className="text-left text-amber-800 hover:underline"
          >
            <span className="mr-1 inline-block w-2">{open ? '▾' : '▸'}</span>
            {t('draftSince', { summary: summarizeDiff(d, td) })}
          </button>
        )}
        {open && !d.same && <DiffDetails diff={d} nodeLabel={nodeLabel} />}
      </div>
    </li>
  );
}

export function VersionsSection({
  versions,
  rollingBack,
  error,
  onRollback,
  nodeLabel,
}: {
  versions: VersionInfo[];
  rollingBack: number | null;
  error: unknown;
  onRollback: (version: number) => void;
  nodeLabel: (id: string) => string;
}) {
  const t = useTranslations('publish.versions');
  const format = useFormatter();
  return (
    <Section
      title={t('title')}
      testId="publish-versions-section"
      aside={<span className="text-[11px] text-zinc-400">{versions.length ? format.number(versions.length) : ''}</span>}
    >
      {versions.length === 0 ? (
        <p className="text-[12px] text-zinc-500" data-testid="versions-empty">
          {t('empty')}
        </p>
      ) : (
        <ul className="space-y-1.5" data-testid="versions-list">
          {versions.map((v) => (
            <VersionRow
              key={v.id}
              v={v}
              busy={rollingBack === v.version}
              disabled={rollingBack !== null}
              onRollback={() => onRollback(v.version)}
              nodeLabel={nodeLabel}
            />
          ))}
        </ul>
      )}
      <InlineError error={error} testId="versions-error" />
    </Section>
  );
}
