'use client';
/**
 * The workflow's conversation variables (issue 45), in the workflow inspector: typed values that persist across the
 * turns of a chat conversation, read as `{{conversation.<name>}}` and changed by Variable assigner nodes. Each row is
 * a name, a type, a default (text for a string, JSON for the other types) and a description; the server's validation
 * reports a name used twice or a default of the wrong type on the Problems panel.
 */
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { CONVERSATION_VARIABLE_TYPES, type ConversationVariable } from '@/engine/template/conversation-variables';
import { Button } from '@/components/ui/button';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';

const selectVariables = (s: EditorState) => s.conversationVariables;
const INPUT =
  'h-7 w-full rounded-md border border-zinc-300 px-2 text-[12px] outline-none ' +
  'focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100';

/** The default as the field shows it: a string as it is, any other type as JSON. */
const shown = (v: ConversationVariable) =>
  v.default === undefined ? '' : v.type === 'string' ? String(v.default) : JSON.stringify(v.default);

function DefaultField({ v, onChange }: { v: ConversationVariable; onChange: (d: unknown) => void }) {
  const t = useTranslations('inspector.conversationVariables');
  const [text, setText] = useState(shown(v));
  const [bad, setBad] = useState(false);
  return (
    <input
      value={text}
      placeholder={t('defaultPlaceholder')}
      aria-label={t('default')}
      aria-invalid={bad}
      data-testid="conversation-variable-default"
      className={`${INPUT} ${bad ? 'border-red-400' : ''}`}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (next === '' || v.type === 'string') {
          setBad(false);
          onChange(next === '' ? undefined : next);
          return;
        }
        try {
          onChange(JSON.parse(next));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

export function ConversationVariablesSection() {
  const { editor } = useEditorContext();
  const list = useEditorState(selectVariables) ?? [];
  const t = useTranslations('inspector.conversationVariables');
  const set = (i: number, patch: Partial<ConversationVariable>) => {
    const next = list.map((v, j) => (j === i ? { ...v, ...patch } : v));
    // An absent default is the type's empty value: drop the key rather than store `undefined`.
    editor.setConversationVariables(
      next.map((v) =>
        v.default === undefined ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'default')) : v,
      ) as ConversationVariable[],
    );
  };
  const add = () => {
    const taken = new Set(list.map((v) => v.name));
    let n = list.length + 1;
    while (taken.has(`var_${n}`)) n++;
    editor.setConversationVariables([...list, { name: `var_${n}`, type: 'string' }]);
  };
  return (
    <div data-testid="conversation-variables">
      <div className="mb-1 text-[12px] font-medium text-zinc-700">{t('heading')}</div>
      <p className="mb-2 text-[11px] leading-snug text-zinc-500">{t('hint', { ref: '{{conversation.name}}' })}</p>
      {list.length === 0 && <p className="mb-2 text-[11px] italic text-zinc-400">{t('empty')}</p>}
      <ul className="space-y-2">
        {list.map((v, i) => (
          <li key={i} className="space-y-1 rounded-md border border-zinc-200 p-2" data-testid="conversation-variable">
            <div className="flex gap-1">
              <input
                value={v.name}
                aria-label={t('name')}
                placeholder={t('name')}
                data-testid="conversation-variable-name"
                className={`${INPUT} font-mono`}
                onChange={(e) => set(i, { name: e.target.value })}
              />
              <select
                value={v.type}
                aria-label={t('type')}
                data-testid="conversation-variable-type"
                className="h-7 rounded-md border border-zinc-300 bg-white px-1 text-[12px]"
                onChange={(e) => set(i, { type: e.target.value as ConversationVariable['type'], default: undefined })}
              >
                {CONVERSATION_VARIABLE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`types.${type.replace(/\[(\w+)\]/, '_$1')}`)}
                  </option>
                ))}
              </select>
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('remove')}
                title={t('remove')}
                onClick={() => editor.setConversationVariables(list.filter((_, j) => j !== i))}
              >
                {t('remove')}
              </Button>
            </div>
            <DefaultField key={`${i}:${v.type}`} v={v} onChange={(d) => set(i, { default: d })} />
            <input
              value={v.description ?? ''}
              aria-label={t('description')}
              placeholder={t('description')}
              className={INPUT}
              onChange={(e) => set(i, { description: e.target.value || undefined })}
            />
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" className="mt-2" onClick={add} data-testid="add-conversation-variable">
        {t('add')}
      </Button>
    </div>
  );
}

/** The variable of a Variable assigner's operation: one of the workflow's conversation variables. */
export function ConversationVariablePicker(props: {
  value: unknown;
  onChange: (v: unknown) => void;
  testId: string;
  label: string;
  className: string;
}) {
  const list = useEditorState(selectVariables) ?? [];
  const t = useTranslations('inspector.conversationVariables');
  const current = typeof props.value === 'string' ? props.value : '';
  return (
    <select
      value={current}
      aria-label={props.label}
      data-testid={props.testId}
      className={props.className}
      onChange={(e) => props.onChange(e.target.value || undefined)}
    >
      <option value="">{t('choose')}</option>
      {current && !list.some((v) => v.name === current) && (
        <option value={current}>{t('undeclared', { name: current })}</option>
      )}
      {list.map((v) => (
        <option key={v.name} value={v.name}>
          {v.name} ({t(`types.${v.type.replace(/\[(\w+)\]/, '_$1')}`)})
        </option>
      ))}
    </select>
  );
}
