'use client';
/**
 * The inspector's control for a node's `credentialId`: a dropdown of the workspace's credentials of the kinds the
 * node can use (OpenAI-compatible for LLM and Agent nodes, header / bearer / basic for HTTP), with "None".
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { authApi, type CredentialView } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';

const HTTP_TYPES = new Set(['http_header', 'bearer', 'basic']);

const selectNodeType = (s: EditorState) =>
  s.selectedIds.length === 1 ? s.nodes.find((n) => n.id === s.selectedIds[0])?.type : undefined;

export function CredentialSelect({
  value,
  onChange,
  testId,
  label,
  className,
}: {
  value: unknown;
  onChange: (id: string | undefined) => void;
  testId: string;
  label: string;
  className: string;
}) {
  const t = useTranslations('inspector.credential');
  const nodeType = useEditorState(selectNodeType);
  // A viewer may not list the workspace's credentials (403): their read-only form shows the stored id only.
  const readOnly = useEditorContext().editor.readOnly;
  const [list, setList] = useState<CredentialView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (readOnly) return;
    let cancelled = false;
    (async () => {
      try {
        const all = await authApi.listCredentials();
        if (!cancelled) setList(all);
      } catch (e) {
        if (!cancelled) setError(errorMessage(e));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [readOnly]);

  const fits = (c: CredentialView) => (nodeType === 'http' ? HTTP_TYPES.has(c.type) : c.type === 'openai');
  const options = (list ?? []).filter(fits);
  const current = typeof value === 'string' ? value : '';
  return (
    <>
      <select
        value={current}
        data-testid={testId}
        aria-label={label}
        className={className}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{t('none')}</option>
        {current && !options.some((c) => c.id === current) && (
          <option value={current}>{list ? t('unknown', { id: current }) : t('stored', { id: current })}</option>
        )}
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} · {c.masked}
          </option>
        ))}
      </select>
      {error && <p className="mt-1 text-[11px] text-amber-700">{t('listFailed', { error })}</p>}
    </>
  );
}
