'use client';
/**
 * The decision on an Agent's tool call that waits for approval (`run.waiting` with a `tool_approval` prompt): the
 * call's tool and arguments, and Approve / Edit (a JSON editor of the arguments) / Reject (an optional message).
 * The decision goes to POST /api/runs/:id/answer like a human-input answer; the run then continues on the same stream.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useEditorContext } from '../editor-context';
import { JsonTextArea } from './json-textarea';
import { answerRun } from './run-actions';
import type { ToolApprovalPrompt } from './run-state';

type Decision =
  | { decision: 'approve'; callId: string }
  | { decision: 'edit'; callId: string; arguments: Record<string, unknown> }
  | { decision: 'reject'; callId: string; message?: string };

const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? {}, null, 2));

/** The edited text as a call's arguments: a JSON object, or why not (the parser's message, or 'object'). */
export function parseArguments(
  text: string,
): { value: Record<string, unknown> } | { error: { json: string } | 'object' } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: { json: (e as Error).message } };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'object' };
  return { value: v as Record<string, unknown> };
}

export function ToolApprovalBox({
  runId,
  nodeId,
  prompt,
}: {
  runId: string;
  nodeId: string | null;
  prompt: ToolApprovalPrompt;
}) {
  const { editor, runController } = useEditorContext();
  const t = useTranslations('run.approval');
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [text, setText] = useState(() => pretty(prompt.arguments));
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const node = nodeId ? editor.state.nodes.find((n) => n.id === nodeId) : undefined;
  const label = node?.data.label || nodeId || t('anAgent');
  // `pendingCalls`: how many calls of the round still wait for a decision, this one included.
  const undecided =
    typeof prompt.pendingCalls === 'number'
      ? prompt.pendingCalls
      : Array.isArray(prompt.pendingCalls)
        ? prompt.pendingCalls.length + 1
        : 1;
  const pending = Math.max(0, undecided - 1);

  const send = async (d: Decision) => {
    if (!nodeId || sending) return;
    setSending(true);
    try {
      if (await answerRun(runId, nodeId, d)) runController.follow();
    } finally {
      setSending(false);
    }
  };
  const sendEdit = () => {
    const parsed = parseArguments(text);
    if ('error' in parsed) {
      return setError(parsed.error === 'object' ? t('notObject') : t('notJson', { error: parsed.error.json }));
    }
    setError(null);
    void send({ decision: 'edit', callId: prompt.callId, arguments: parsed.value });
  };

  return (
    <div
      className="border-b border-amber-200 bg-amber-50 px-3 py-2"
      data-testid="tool-approval"
      data-call-id={prompt.callId}
      data-tool={prompt.name}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[12px] font-medium text-amber-900" data-testid="approval-title">
          {t.rich('title', { label, tool: prompt.name, code: (c) => <span className="font-mono">{c}</span> })}
        </span>
        {prompt.round !== undefined && (
          <span className="text-[11px] text-amber-700">{t('round', { round: prompt.round })}</span>
        )}
        {pending > 0 && (
          <span className="text-[11px] text-amber-700" data-testid="approval-pending">
            {t('pending', { count: pending })}
          </span>
        )}
        <span className="flex-1" />
        {mode === 'view' && (
          <>
            <Button
              size="sm"
              variant="run"
              disabled={!nodeId || sending}
              onClick={() => void send({ decision: 'approve', callId: prompt.callId })}
              data-testid="approval-approve"
            >
              {t('approve')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={!nodeId || sending}
              onClick={() => {
                setText(pretty(prompt.arguments));
                setError(null);
                setMode('edit');
              }}
              data-testid="approval-edit"
            >
              {t('edit')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={!nodeId || sending}
              onClick={() => setMode('reject')}
              data-testid="approval-reject"
            >
              {t('reject')}
            </Button>
          </>
        )}
      </div>
      {mode === 'edit' ? (
        <div className="mt-1.5">
          <JsonTextArea
            value={text}
            onChange={setText}
            label={t('argumentsLabel')}
            testId="approval-arguments-editor"
            invalid={!!error}
            tone="amber"
          />
          {error && (
            <p className="text-[11px] text-red-600" data-testid="approval-error">
              {error}
            </p>
          )}
          <div className="mt-1 flex gap-2">
            <Button size="sm" variant="primary" disabled={sending} onClick={sendEdit} data-testid="approval-edit-send">
              {t('runEdited')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setMode('view')} data-testid="approval-cancel">
              {t('cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <pre
          data-testid="approval-arguments"
          className={
            'mt-1.5 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded-md border border-amber-200 ' +
            'bg-white p-2 font-mono text-[11px] leading-snug text-zinc-800'
          }
        >
          {pretty(prompt.arguments)}
        </pre>
      )}
      {mode === 'reject' && (
        <form
          className="mt-1.5 flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void send({ decision: 'reject', callId: prompt.callId, message: message.trim() || undefined });
          }}
        >
          <input
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder={t('rejectPlaceholder')}
            aria-label={t('rejectLabel')}
            data-testid="approval-reject-message"
            className={
              'h-7 min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-2 text-[12px] outline-none ' +
              'focus:ring-2 focus:ring-amber-200'
            }
          />
          <Button size="sm" type="submit" variant="danger" disabled={sending} data-testid="approval-reject-send">
            {t('rejectCall')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode('view')}>
            {t('cancel')}
          </Button>
        </form>
      )}
    </div>
  );
}
