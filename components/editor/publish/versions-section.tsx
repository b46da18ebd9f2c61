'use client';
/** The published versions, newest first: when, how big, what the draft changed since, and rollback ("Make current"). */
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { GraphDiff, VersionInfo } from './publish-api';
import { InlineError, Section, formatTime } from './publish-ui';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 nodes added, 1 changed, 1 edge removed" — or "no changes". */
export function summarizeDiff(d: GraphDiff): string {
  if (d.same) return 'no changes';
  const parts: string[] = [];
  if (d.added.length) parts.push(`${plural(d.added.length, 'node')} added`);
  if (d.removed.length) parts.push(`${plural(d.removed.length, 'node')} removed`);
  if (d.changed.length) parts.push(`${plural(d.changed.length, 'node')} changed`);
  if (d.edgesAdded) parts.push(`${plural(d.edgesAdded, 'edge')} added`);
  if (d.edgesRemoved) parts.push(`${plural(d.edgesRemoved, 'edge')} removed`);
  if (d.engineChanged) parts.push('engine changed');
  return parts.join(', ');
}

function DiffDetails({ diff, nodeLabel }: { diff: GraphDiff; nodeLabel: (id: string) => string }) {
  const rows: Array<[string, string[], string]> = [
    ['Added', diff.added, 'text-emerald-700'],
    ['Removed', diff.removed, 'text-red-700'],
    ['Changed', diff.changed, 'text-amber-700'],
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
            <span className={`font-medium ${cls}`}>{label}:</span> {ids.map(nodeLabel).join(', ')}
          </li>
        ))}
      {(diff.edgesAdded > 0 || diff.edgesRemoved > 0) && (
        <li>
          <span className="font-medium">Connections:</span>{' '}
          {[diff.edgesAdded && `+${diff.edgesAdded}`, diff.edgesRemoved && `−${diff.edgesRemoved}`]
            .filter(Boolean)
            .join(' ')}
        </li>
      )}
      {diff.engineChanged && (
        <li>
          <span className="font-medium">Engine</span> differs from this version&apos;s
        </li>
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
          v{v.version}
        </span>
        {v.current && (
          <span
            data-testid="version-current-badge"
            className="rounded-full bg-emerald-600 px-1.5 py-px text-[10px] font-medium text-white"
          >
            current
          </span>
        )}
        <span className="text-zinc-500" data-testid="version-created">
          {formatTime(v.createdAt)}
        </span>
        <span className="text-zinc-400">·</span>
        <span className="text-zinc-500" data-testid="version-node-count">
          {plural(v.nodeCount, 'node')}
        </span>
        <span className="flex-1" />
        {!v.current && (
          <Button
            size="sm"
            data-testid="version-make-current"
            disabled={disabled}
            onClick={onRollback}
            title="Serve this version at the endpoint again"
          >
            {busy ? '…' : 'Make current'}
          </Button>
        )}
      </div>
      <div className="mt-1 text-[11px]">
        {d.same ? (
          <span className="text-zinc-500" data-testid="version-changes" data-same="true">
            Draft: no changes since this version
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
            <span className="mr-1 inline-block w-2">{open ? '▾' : '▸'}</span>Draft since: {summarizeDiff(d)}
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
  return (
    <Section
      title="Versions"
      testId="publish-versions-section"
      aside={<span className="text-[11px] text-zinc-400">{versions.length || ''}</span>}
    >
      {versions.length === 0 ? (
        <p className="text-[12px] text-zinc-500" data-testid="versions-empty">
          No versions yet: publishing snapshots the draft as version 1.
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
