'use client';
/**
 * Says on the knowledge base page when its embedder cannot read some of its text (the offline model and Chinese):
 * those chunks and queries are ranked by BM25 alone, and a multilingual embedder is recommended. Reloaded when the
 * knowledge base or its number of indexed chunks changes.
 */
import { useEffect, useState } from 'react';
import { knowledgeApi, type EmbedderCoverage } from './knowledge-api';

export function EmbedderCoverageNotice({ kbId, chunks }: { kbId: string; chunks: number }) {
  const [coverage, setCoverage] = useState<{ kbId: string; value: EmbedderCoverage } | null>(null);
  useEffect(() => {
    let live = true;
    knowledgeApi.get(kbId).then(
      (kb) => live && setCoverage({ kbId, value: kb.embedder }),
      () => {}, // the page shows the knowledge base's own errors; this notice is only a hint
    );
    return () => {
      live = false;
    };
  }, [kbId, chunks]);
  const notice = coverage?.kbId === kbId ? coverage.value.notice : null;
  if (!notice) return null;
  return (
    <div
      className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      role="status"
      data-testid="embedder-coverage-notice"
    >
      {notice}
    </div>
  );
}
