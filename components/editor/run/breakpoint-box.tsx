'use client';
/**
 * A test run paused at a breakpoint (`run.waiting` with a `breakpoint` prompt): the node's resolved input as editable
 * JSON, and Continue (run on to the next breakpoint), Step (pause before the next node too) or Stop (cancel the run).
 * An edited input is what the node runs with. The answer goes to POST /api/runs/:id/answer; the run then continues on
 * the same stream.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useEditorContext } from '../editor-context';
import { JsonTextArea } from './json-textarea';
import { answerRun } from './run-actions';
import type { BreakpointPrompt } from './run-state';
import { parseArguments } from './tool-approval-box';

type Action = 'continue' | 'step' | 'stop';

export function BreakpointBox({ runId, prompt }: { runId: string; prompt: BreakpointPrompt }) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('run.breakpoint');
  const original = JSON.stringify(prompt.input ?? {}, null, 2);
  const [text, setText] = useState(original);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const node = editor.state.nodes.find((n) => n.id === prompt.nodeId);
  const label = node?.data.label || prompt.nodeId;

  const send = async (action: Action) => {
    if (sending) return;
    let input: Record<string, unknown> | undefined;
    if (action !== 'stop' && text !== original) {
      const parsed = parseArguments(text);
      if ('error' in parsed) {
        return setError(parsed.error === 'object' ? t('notObject') : t('notJson', { error: parsed.error.json }));
      }
      input = parsed.value;
    }
    setError(null);
    setSending(true);
    try {
      if (await answerRun(runId, prompt.nodeId, input ? { action, input } : { action })) runController.follow();
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="border-b border-red-200 bg-red-50 px-3 py-2" data-testid="breakpoint-box" data-node={prompt.nodeId}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="h-2 w-2 rounded-full bg-red-500" aria-hidden />
        <span className="text-[12px] font-medium text-red-900" data-testid="breakpoint-title">
          {t('title', { label })}
        </span>
        <span className="text-[11px] text-red-700">{t('hint')}</span>
        <span className="flex-1" />
        <Button
          size="sm"
          variant="run"
          disabled={sending}
          onClick={() => void send('continue')}
          data-testid="bp-continue"
        >
          {t('continue')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={sending}
          onClick={() => void send('step')}
          data-testid="bp-step"
        >
          {t('step')}
        </Button>
        <Button size="sm" variant="danger" disabled={sending} onClick={() => void send('stop')} data-testid="bp-stop">
          {t('stop')}
        </Button>
      </div>
      <JsonTextArea
        value={text}
        onChange={setText}
        label={t('inputLabel')}
        testId="breakpoint-input"
        invalid={!!error}
        tone="red"
        className="mt-1.5"
      />
      {error && (
        <div className="text-[11px] text-red-700" role="alert" data-testid="breakpoint-error">
          {error}
        </div>
      )}
    </div>
  );
}
