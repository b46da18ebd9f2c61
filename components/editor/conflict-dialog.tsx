'use client';
/**
 * The save-conflict dialog (state and actions in save-conflict.ts): what each side changed since the revision this
 * editor was on, the items both changed (each settled with "Mine" / "Theirs"), and the three ways on — Take theirs,
 * Keep mine (only after a second click that says what of theirs it overwrites) and Merge (only when no clash is left
 * open). Closing it keeps the conflict: the banner under the toolbar reopens it.
 */
import { useState } from 'react';
import { useStoreSelector } from '@/components/lib/external-store';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { useEditorContext } from './editor-context';
import type { Action, MergeClash, MergeResult, SideChanges } from './graph-merge';
import type { ConflictState, SaveConflict, Theirs } from './save-conflict';

const selectState = (s: ConflictState) => s;
const MAX_ITEMS = 12;

export function ConflictDialog() {
  const { editor } = useEditorContext();
  const state = useStoreSelector(editor.conflict.store, selectState);
  if (!state.open) return null;
  // A newer version of theirs (saved elsewhere again meanwhile) starts over: a confirmation was about the old one.
  return <ConflictDialogBody key={state.theirs?.revision ?? 'loading'} conflict={editor.conflict} state={state} />;
}

function ConflictDialogBody({ conflict, state }: { conflict: SaveConflict; state: ConflictState }) {
  const [confirming, setConfirming] = useState(false);
  const { theirs, result, phase } = state;
  const busy = phase === 'applying';
  const ready = !!theirs && !!result && (phase === 'ready' || busy);

  const footer = !ready ? (
    <Button onClick={conflict.close}>Close</Button>
  ) : confirming ? (
    <>
      <Button onClick={() => setConfirming(false)} disabled={busy}>
        Back
      </Button>
      <Button variant="danger" onClick={() => void conflict.keepMine()} disabled={busy} data-testid="keep-mine-confirm">
        Overwrite with mine
      </Button>
    </>
  ) : (
    <>
      {result.unresolved.length > 0 && (
        <span className="mr-auto self-center text-xs text-amber-700" data-testid="merge-blocked">
          Pick Mine or Theirs for {plural(result.unresolved.length, 'clashing item')} to merge.
        </span>
      )}
      <Button onClick={conflict.takeTheirs} disabled={busy} data-testid="take-theirs" title="Drop your changes">
        Take theirs
      </Button>
      <Button onClick={() => setConfirming(true)} disabled={busy} data-testid="keep-mine">
        Keep mine…
      </Button>
      <Button
        variant="primary"
        onClick={() => void conflict.applyMerge()}
        disabled={busy || result.unresolved.length > 0}
        data-testid="merge"
        title={result.unresolved.length ? 'Both sides changed the same items: pick a side for each first' : undefined}
      >
        Merge
      </Button>
    </>
  );

  return (
    <Modal
      title="This workflow was changed elsewhere"
      onClose={conflict.close}
      testId="conflict-dialog"
      wide
      footer={footer}
    >
      {phase === 'loading' && <p className="text-zinc-500">Loading the version stored now…</p>}
      {phase === 'error' && (
        <div role="alert" className="space-y-2 text-red-800">
          <p>Could not load the stored version: {state.error}</p>
          <Button size="sm" onClick={() => void conflict.open()}>
            Try again
          </Button>
        </div>
      )}
      {ready && (
        <div className="space-y-4" data-phase={phase}>
          <Intro theirs={theirs} />
          <div className="grid grid-cols-2 gap-4">
            <ChangeList title="Your changes" changes={result.mine} testId="changes-mine" />
            <ChangeList title="Their changes" changes={result.theirs} testId="changes-theirs" />
          </div>
          <Notes result={result} />
          {result.clashes.length > 0 && <Clashes result={result} picks={state.picks} conflict={conflict} />}
          {confirming && (
            <p
              className="rounded-md border border-red-200 bg-red-50 p-3 text-[13px] text-red-900"
              data-testid="keep-mine-warning"
            >
              Saving yours replaces the stored version: the {plural(result.theirs.count, 'change')} listed under “Their
              changes” will be overwritten.
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}

function Intro({ theirs }: { theirs: Theirs }) {
  const at = new Date(theirs.updatedAt);
  const when = Number.isNaN(at.getTime())
    ? ''
    : ` at ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
  return (
    <p className="text-[13px] text-zinc-700" data-testid="conflict-intro">
      Revision {theirs.revision} was saved{when} — in another tab or by someone else — after this editor loaded. Your
      edits are still here and kept in this browser. Choose how to go on.
    </p>
  );
}

const KIND_STYLE = {
  added: 'text-emerald-700',
  removed: 'text-red-700',
  changed: 'text-amber-700',
  moved: 'text-zinc-500',
  edge: 'text-zinc-600',
  field: 'text-indigo-700',
} as const;

interface Item {
  kind: keyof typeof KIND_STYLE;
  id: string;
  text: string;
}

function itemsOf(c: SideChanges): Item[] {
  const node = (kind: 'added' | 'removed' | 'changed' | 'moved', verb: string) => (r: { id: string; label: string }) =>
    ({ kind, id: r.id, text: `${verb} “${r.label}”${r.label === r.id ? '' : ` (${r.id})`}` }) as Item;
  const edge = (verb: string) => (e: { id: string; from: string; to: string }) =>
    ({ kind: 'edge', id: e.id, text: `${verb} ${e.from} → ${e.to}` }) as Item;
  return [
    ...c.fields.map((f): Item => ({
      kind: 'field',
      id: f.field,
      text:
        f.field === 'description'
          ? 'Changed the description'
          : f.field === 'name'
            ? `Renamed the workflow “${f.from}” → “${f.to}”`
            : `Engine ${f.from} → ${f.to}`,
    })),
    ...c.added.map(node('added', 'Added')),
    ...c.removed.map(node('removed', 'Removed')),
    ...c.changed.map(node('changed', 'Changed')),
    ...c.moved.map(node('moved', 'Moved')),
    ...c.edgesAdded.map(edge('Connected')),
    ...c.edgesRemoved.map(edge('Disconnected')),
    ...c.edgesChanged.map(edge('Rewired')),
  ];
}

function ChangeList({ title, changes, testId }: { title: string; changes: SideChanges; testId: string }) {
  const items = itemsOf(changes);
  return (
    <section data-testid={testId} data-count={changes.count}>
      <h3 className="mb-1.5 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{title}</h3>
      {items.length === 0 ? (
        <p className="text-[13px] text-zinc-400">No changes</p>
      ) : (
        <ul className="space-y-0.5 text-[13px]">
          {items.slice(0, MAX_ITEMS).map((it) => (
            <li
              key={`${it.kind}:${it.id}`}
              className={KIND_STYLE[it.kind]}
              data-testid="change"
              data-kind={it.kind}
              data-id={it.id}
            >
              {it.text}
            </li>
          ))}
          {items.length > MAX_ITEMS && <li className="text-zinc-400">and {items.length - MAX_ITEMS} more</li>}
        </ul>
      )}
    </section>
  );
}

function Notes({ result }: { result: MergeResult }) {
  if (!result.renamed.length && !result.droppedEdges.length) return null;
  return (
    <ul className="space-y-1 text-[12px] text-zinc-500" data-testid="merge-notes">
      {result.renamed.map((r) => (
        <li key={r.from}>
          Both sides added a node “{r.from}”: yours (“{r.label}”) becomes “{r.to}” in the merge, with its connections.
        </li>
      ))}
      {result.droppedEdges.length > 0 && (
        <li>
          {plural(result.droppedEdges.length, 'connection')} to removed nodes will be dropped (
          {result.droppedEdges.join(', ')}).
        </li>
      )}
    </ul>
  );
}

const ACTION: Record<Action, string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  connected: 'connected new edges to',
};

function Clashes({
  result,
  picks,
  conflict,
}: {
  result: MergeResult;
  picks: ConflictState['picks'];
  conflict: SaveConflict;
}) {
  return (
    <section data-testid="conflict-clashes" className="rounded-md border border-amber-200 bg-amber-50 p-3">
      <h3 className="mb-1 text-[13px] font-semibold text-amber-900">
        Both sides changed {plural(result.clashes.length, 'item')}
      </h3>
      <p className="mb-2 text-[12px] text-amber-800">Pick which version of each to keep, then Merge.</p>
      <ul className="space-y-1.5">
        {result.clashes.map((c) => (
          <ClashRow key={c.key} clash={c} picked={picks[c.key]} conflict={conflict} />
        ))}
      </ul>
    </section>
  );
}

function ClashRow({ clash, picked, conflict }: { clash: MergeClash; picked?: string; conflict: SaveConflict }) {
  const what = clash.kind === 'field' ? `the ${clash.id}` : clash.kind === 'edge' ? 'the connection' : 'it';
  return (
    <li className="flex items-center gap-2 text-[13px]" data-testid="clash" data-key={clash.key} data-id={clash.id}>
      <span className="min-w-0 flex-1 truncate">
        <b>{clash.kind === 'field' ? `Workflow ${clash.id}` : clash.label}</b>
        {clash.kind === 'node' && clash.label !== clash.id && <span className="text-zinc-500"> ({clash.id})</span>}
        <span className="text-zinc-600">
          {' '}
          — you {ACTION[clash.mine]} {what}, they {ACTION[clash.theirs]} {what}
        </span>
      </span>
      {(['mine', 'theirs'] as const).map((side) => (
        <button
          key={side}
          type="button"
          aria-pressed={picked === side}
          onClick={() => conflict.pick(clash.key, side)}
          data-testid={`clash-${side}`}
          className={
            'rounded-md border px-2 py-0.5 text-xs font-medium ' +
            (picked === side
              ? 'border-indigo-500 bg-indigo-600 text-white'
              : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50')
          }
        >
          {side === 'mine' ? 'Mine' : 'Theirs'}
        </button>
      ))}
    </li>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
