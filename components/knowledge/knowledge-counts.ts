/**
 * The document and chunk counts shown for a knowledge base. The list's counts are the server's as of the last
 * time the list was read; for the knowledge base on screen the page holds its documents (polled while any is being
 * indexed), so its counts are taken from them and follow uploads and indexing as they happen.
 */
import type { KnowledgeBase, KnowledgeDocument } from './knowledge-api';
import { englishKnowledge, type KnowledgeT } from './knowledge-text';

export interface Counts {
  documents: number;
  chunks: number;
}

/** `docs` are the documents of `docsOf` as last read (null: none read yet). */
export function countsOf(kb: KnowledgeBase, docsOf: string | null, docs: KnowledgeDocument[]): Counts {
  if (kb.id === docsOf) return { documents: docs.length, chunks: docs.reduce((n, d) => n + (d.chunkCount ?? 0), 0) };
  return { documents: kb.documentCount ?? 0, chunks: kb.chunkCount ?? 0 };
}

/** "2 docs · 3 chunks", by the page's translator of `knowledge` (English without one). */
export function countsLabel(c: Counts, t: KnowledgeT = englishKnowledge): string {
  return t('counts', { documents: c.documents, chunks: c.chunks });
}

/** Whether any document is still on its way to `indexed` or `failed` (the page polls while so). */
export function indexing(docs: KnowledgeDocument[]): boolean {
  return docs.some((d) => d.status !== 'indexed' && d.status !== 'failed');
}
