'use client';
/**
 * A document's search settings in its row: switched on or off for searches (kept either way), and its key–value
 * metadata as chips, edited as a JSON object (PATCH /api/knowledge-bases/:id/documents/:docId). A refused edit shows
 * the server's reason under the field and changes nothing.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { knowledgeApi, type KnowledgeDocument } from './knowledge-api';

export function DocumentSettings({
  kbId,
  doc,
  onChanged,
}: {
  kbId: string;
  doc: KnowledgeDocument;
  onChanged: () => Promise<void>;
}) {
  const t = useTranslations('knowledge.documents.settings');
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const entries = Object.entries(doc.metadata ?? {});

  const patch = async (body: { enabled?: boolean; metadata?: unknown }) => {
    setProblem(null);
    try {
      await knowledgeApi.updateDocument(kbId, doc.id, body);
      setEditing(null);
      await onChanged();
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  const save = () => {
    let metadata: unknown;
    try {
      metadata = JSON.parse(editing ?? '{}');
    } catch {
      return setProblem(t('notJson'));
    }
    void patch({ metadata });
  };

  return (
    <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-zinc-600" data-testid="doc-settings">
      <label className="mr-1 flex items-center gap-1" title={t('enabledTitle')}>
        <input
          type="checkbox"
          checked={doc.enabled !== false}
          onChange={(e) => void patch({ enabled: e.target.checked })}
          data-testid="doc-enabled"
        />
        {doc.enabled === false ? t('off') : t('on')}
      </label>
      {entries.map(([k, v]) => (
        <span key={k} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px]" data-testid="doc-metadata">
          {k}: {String(v)}
        </span>
      ))}
      {editing === null ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setEditing(JSON.stringify(doc.metadata ?? {}, null, 1))}
          data-testid="doc-metadata-edit"
        >
          {entries.length ? t('edit') : t('add')}
        </Button>
      ) : (
        <span className="flex w-full items-start gap-2">
          <textarea
            className="min-h-12 flex-1 rounded border border-zinc-300 p-1 font-mono text-[11px]"
            aria-label={t('label')}
            spellCheck={false}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            data-testid="doc-metadata-input"
          />
          <Button size="sm" variant="primary" onClick={save} data-testid="doc-metadata-save">
            {t('save')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => (setEditing(null), setProblem(null))}>
            {t('cancel')}
          </Button>
        </span>
      )}
      {problem && (
        <span className="w-full text-red-700" data-testid="doc-metadata-problem">
          {problem}
        </span>
      )}
    </div>
  );
}
