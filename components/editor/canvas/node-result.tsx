'use client';
/**
 * A node's run result on its card, in one line so the card never grows: streaming tokens, the output or the error.
 * Hovering the line (or clicking it, which keeps it open) shows more in a popover drawn above the other nodes by
 * React Flow's NodeToolbar; the inspector shows it in full. The popover is mounted only while open.
 */
import { NodeToolbar, Position } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { NodeRunState } from '../run/run-store';
import { outputText } from './node-summary';

const LINE = 'truncate rounded px-1.5 font-mono text-[10px] leading-[15px] cursor-help';
const POPOVER =
  'max-h-64 w-80 overflow-auto whitespace-pre-wrap break-words rounded-md border bg-white px-3 py-2 ' +
  'font-mono text-[11px] leading-snug text-zinc-700 shadow-lg';

/** What the card shows for a run state, if anything: the kind of result and its text. */
export function resultOf(run: NodeRunState | undefined): { kind: 'live' | 'output' | 'error'; text: string } | null {
  if (!run) return null;
  if (run.status === 'running' && run.tokens) return { kind: 'live', text: run.tokens };
  if (run.status === 'succeeded') {
    const text = outputText(run.output, 2000);
    return text ? { kind: 'output', text } : null;
  }
  if (run.status === 'failed' && run.error) return { kind: 'error', text: run.error.message };
  return null;
}

export function NodeResult({ result }: { result: NonNullable<ReturnType<typeof resultOf>> }) {
  const t = useTranslations('canvas.node');
  const [hover, setHover] = useState(false);
  const [pinned, setPinned] = useState(false);
  const { kind, text } = result;
  // While streaming, the line shows the newest tokens.
  const line = kind === 'live' && text.length > 120 ? `…${text.slice(-120)}` : text;
  const tone =
    kind === 'error'
      ? 'bg-red-50 text-red-800'
      : kind === 'live'
        ? 'bg-blue-50 text-blue-900'
        : 'bg-zinc-50 text-zinc-600';
  return (
    <>
      <div
        data-testid={kind === 'error' ? 'node-error' : 'node-live-text'}
        className={`${LINE} ${tone}`}
        title={t('previewHint')}
        onMouseEnter={() => setHover(true)}
        onMouseLeave={() => setHover(false)}
        onClick={() => setPinned((p) => !p)}
      >
        {line}
      </div>
      {(hover || pinned) && (
        <NodeToolbar isVisible position={Position.Bottom} offset={8}>
          <div
            data-testid="node-result-popover"
            className={`${POPOVER} ${kind === 'error' ? 'border-red-200' : 'border-zinc-200'}`}
            onMouseEnter={() => setHover(true)}
            onMouseLeave={() => setHover(false)}
          >
            <div className="mb-1 font-sans text-[10px] font-semibold uppercase tracking-wider text-zinc-400">
              {kind === 'error' ? t('error') : kind === 'live' ? t('streaming') : t('output')}
            </div>
            {kind === 'live' && text.length > 2000 ? `…${text.slice(-2000)}` : text}
          </div>
        </NodeToolbar>
      )}
    </>
  );
}
