'use client';
/** The answer box of a run waiting on a human-input node (the run panel shows it above the trace). */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useEditorContext } from '../editor-context';
import { answerRun } from './run-actions';

/** The answer form for a run waiting on a human-input node, shaped by the node's `answerType`. */
export function AnswerBox({ runId, nodeId, prompt }: { runId: string; nodeId: string | null; prompt: string | null }) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('run.answer');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const node = nodeId ? editor.state.nodes.find((n) => n.id === nodeId) : undefined;
  const answerType = (node?.data.config.answerType as string | undefined) ?? 'text';
  const send = async (answer: unknown) => {
    if (!nodeId) return;
    if (await answerRun(runId, nodeId, answer)) {
      setText('');
      runController.follow();
    }
  };
  const submitText = () => {
    if (answerType !== 'json') return void send(text);
    try {
      setError(null);
      void send(JSON.parse(text));
    } catch {
      setError(t('invalidJson'));
    }
  };
  return (
    <form
      className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-2"
      data-testid="answer-box"
      onSubmit={(e) => {
        e.preventDefault();
        submitText();
      }}
    >
      <span className="shrink-0 text-[12px] font-medium text-amber-900" data-testid="answer-prompt">
        {prompt ?? t('waiting', { node: nodeId ?? t('aNode') })}
      </span>
      {answerType === 'boolean' ? (
        <>
          <span className="flex-1" />
          <Button size="sm" variant="run" onClick={() => void send(true)} disabled={!nodeId} data-testid="answer-yes">
            {t('approve')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void send(false)}
            disabled={!nodeId}
            data-testid="answer-no"
          >
            {t('reject')}
          </Button>
        </>
      ) : (
        <>
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="answer-input"
            placeholder={answerType === 'json' ? t('jsonPlaceholder') : t('textPlaceholder')}
            className={
              'h-7 min-w-0 flex-1 rounded-md border bg-white px-2 text-[12px] outline-none focus:ring-2 ' +
              `focus:ring-amber-200 ${answerType === 'json' ? 'font-mono' : ''} ` +
              (error ? 'border-red-400' : 'border-amber-300')
            }
          />
          {error && <span className="text-[11px] text-red-600">{error}</span>}
          <Button
            size="sm"
            type="submit"
            variant="primary"
            disabled={!text.trim() || !nodeId}
            data-testid="answer-submit"
          >
            {t('send')}
          </Button>
        </>
      )}
    </form>
  );
}
