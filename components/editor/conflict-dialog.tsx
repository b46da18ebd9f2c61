'use client';
/**
 * The save-conflict dialog (state and actions in save-conflict.ts): what each side changed since the revision this
 * editor was on, the items both changed (each settled with "Mine" / "Theirs"), and the three ways on — Take theirs,
 * Keep mine (only after a second click that says what of theirs it overwrites) and Merge (only when no clash is left
 * open). Closing it keeps the conflict: the banner under the toolbar reopens it.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useState } from 'react';
import { useStoreSelector } from '@/components/lib/external-store';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { useEditorContext } from './editor-context';
import type { MergeClash, MergeResult, SideChanges } from './graph-merge';
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
  const t = useTranslations('editor.conflict');
  const [confirming, setConfirming] = useState(false);
  const { theirs, result, phase } = state;
  const busy = phase === 'applying';
  const ready = !!theirs && !!result && (phase === 'ready' || busy);

  const footer = !ready ? (
    <Button onClick={conflict.close}>{t('close')}</Button>
  ) : confirming ? (
    <>
      <Button onClick={() => setConfirming(false)} disabled={busy}>
        {t('back')}
      </Button>
      <Button variant="danger" onClick={() => void conflict.keepMine()} disabled={busy} data-testid="keep-mine-confirm">
        {t('overwrite')}
      </Button>
    </>
  ) : (
    <>
      {result.unresolved.length > 0 && (
        <span className="mr-auto self-center text-xs text-amber-700" data-testid="merge-blocked">
          {t('mergeBlocked', { count: result.unresolved.length })}
        </span>
      )}
      <Button onClick={conflict.takeTheirs} disabled={busy} data-testid="take-theirs" title={t('takeTheirsTitle')}>
        {t('takeTheirs')}
      </Button>
      <Button onClick={() => setConfirming(true)} disabled={busy} data-testid="keep-mine">
        {t('keepMine')}
      </Button>
      <Button
        variant="primary"
        onClick={() => void conflict.applyMerge()}
        disabled={busy || result.unresolved.length > 0}
        data-testid="merge"
        title={result.unresolved.length ? t('mergeTitle') : undefined}
      >
        {t('merge')}
      </Button>
    </>
  );

  return (
    <Modal title={t('title')} onClose={conflict.close} testId="conflict-dialog" wide footer={footer}>
      {phase === 'loading' && <p className="text-zinc-500">{t('loading')}</p>}
      {phase === 'error' && (
        <div role="alert" className="space-y-2 text-red-800">
          <p>{t('loadError', { error: state.error ?? '' })}</p>
          <Button size="sm" onClick={() => void conflict.open()}>
            {t('tryAgain')}
          </Button>
        </div>
      )}
      {ready && (
        <div className="space-y-4" data-phase={phase}>
          <Intro theirs={theirs} />
          <div className="grid grid-cols-2 gap-4">
            <ChangeList title={t('yourChanges')} changes={result.mine} testId="changes-mine" />
            <ChangeList title={t('theirChanges')} changes={result.theirs} testId="changes-theirs" />
          </div>
          <Notes result={result} />
          {result.clashes.length > 0 && <Clashes result={result} picks={state.picks} conflict={conflict} />}
          {confirming && (
            <p
              className="rounded-md border border-red-200 bg-red-50 p-3 text-[13px] text-red-900"
              data-testid="keep-mine-warning"
            >
              {t('overwriteWarning', { count: result.theirs.count })}
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}

function Intro({ theirs }: { theirs: Theirs }) {
  const t = useTranslations('editor.conflict');
  const format = useFormatter();
  const at = new Date(theirs.updatedAt);
  const revision = theirs.revision;
  return (
    <p className="text-[13px] text-zinc-700" data-testid="conflict-intro">
      {Number.isNaN(at.getTime())
        ? t('intro', { revision })
        : t('introAt', { revision, time: format.dateTime(at, { hour: '2-digit', minute: '2-digit' }) })}
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

type Translate = ReturnType<typeof useTranslations>;

function itemsOf(c: SideChanges, t: Translate): Item[] {
  const node = (kind: 'added' | 'removed' | 'changed' | 'moved') => (r: { id: string; label: string }) =>
    ({
      kind,
      id: r.id,
      text: t(`item.${kind}`, { label: r.label }) + (r.label === r.id ? '' : t('idSuffix', { id: r.id })),
    }) as Item;
  const edge = (verb: 'connected' | 'disconnected' | 'rewired') => (e: { id: string; from: string; to: string }) =>
    ({ kind: 'edge', id: e.id, text: t(`item.${verb}`, { from: e.from, to: e.to }) }) as Item;
  return [
    ...c.fields.map((f): Item => ({
      kind: 'field',
      id: f.field,
      text:
        f.field === 'description'
          ? t('item.description')
          : f.field === 'name'
            ? t('item.renamed', { from: String(f.from), to: String(f.to) })
            : t('item.engine', { from: String(f.from), to: String(f.to) }),
    })),
    ...c.added.map(node('added')),
    ...c.removed.map(node('removed')),
    ...c.changed.map(node('changed')),
    ...c.moved.map(node('moved')),
    ...c.edgesAdded.map(edge('connected')),
    ...c.edgesRemoved.map(edge('disconnected')),
    ...c.edgesChanged.map(edge('rewired')),
  ];
}

function ChangeList({ title, changes, testId }: { title: string; changes: SideChanges; testId: string }) {
  const t = useTranslations('editor.conflict');
  const items = itemsOf(changes, t);
  return (
    <section data-testid={testId} data-count={changes.count}>
      <h3 className="mb-1.5 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{title}</h3>
      {items.length === 0 ? (
        <p className="text-[13px] text-zinc-400">{t('noChanges')}</p>
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
          {items.length > MAX_ITEMS && (
            <li className="text-zinc-400">{t('more', { count: items.length - MAX_ITEMS })}</li>
          )}
        </ul>
      )}
    </section>
  );
}

function Notes({ result }: { result: MergeResult }) {
  const t = useTranslations('editor.conflict');
  if (!result.renamed.length && !result.droppedEdges.length) return null;
  return (
    <ul className="space-y-1 text-[12px] text-zinc-500" data-testid="merge-notes">
      {result.renamed.map((r) => (
        <li key={r.from}>{t('renamedNote', { from: r.from, label: r.label, to: r.to })}</li>
      ))}
      {result.droppedEdges.length > 0 && (
        <li>{t('droppedNote', { count: result.droppedEdges.length, list: result.droppedEdges.join(', ') })}</li>
      )}
    </ul>
  );
}

function Clashes({
  result,
  picks,
  conflict,
}: {
  result: MergeResult;
  picks: ConflictState['picks'];
  conflict: SaveConflict;
}) {
  const t = useTranslations('editor.conflict');
  return (
    <section data-testid="conflict-clashes" className="rounded-md border border-amber-200 bg-amber-50 p-3">
      <h3 className="mb-1 text-[13px] font-semibold text-amber-900">
        {t('clashesTitle', { count: result.clashes.length })}
      </h3>
      <p className="mb-2 text-[12px] text-amber-800">{t('clashesHint')}</p>
      <ul className="space-y-1.5">
        {result.clashes.map((c) => (
          <ClashRow key={c.key} clash={c} picked={picks[c.key]} conflict={conflict} />
        ))}
      </ul>
    </section>
  );
}

function ClashRow({ clash, picked, conflict }: { clash: MergeClash; picked?: string; conflict: SaveConflict }) {
  const t = useTranslations('editor.conflict');
  const field = clash.kind === 'field' ? fieldName(t, clash.id) : '';
  const what = clash.kind === 'field' ? t('theField', { field }) : clash.kind === 'edge' ? t('theConnection') : t('it');
  return (
    <li className="flex items-center gap-2 text-[13px]" data-testid="clash" data-key={clash.key} data-id={clash.id}>
      <span className="min-w-0 flex-1 truncate">
        <b>{clash.kind === 'field' ? t('workflowField', { field }) : clash.label}</b>
        {clash.kind === 'node' && clash.label !== clash.id && <span className="text-zinc-500"> ({clash.id})</span>}
        <span className="text-zinc-600">
          {t('clash', { mine: t(`action.${clash.mine}`), theirs: t(`action.${clash.theirs}`), what })}
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
          {side === 'mine' ? t('mine') : t('theirs')}
        </button>
      ))}
    </li>
  );
}

/** A workflow field's name (name, description, engine); an unknown one as it is. */
function fieldName(t: Translate, id: string): string {
  return t.has(`field.${id}`) ? t(`field.${id}`) : id;
}
