/** Browser client for /api/knowledge-bases (the knowledge page's only way to the server). */
export const CHUNKINGS = ['size', 'parent-child', 'qa'] as const;
export type Chunking = (typeof CHUNKINGS)[number];

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  chunkSize: number;
  chunkOverlap: number;
  /** How documents are cut: by size, parent–child (match small, return the section) or question–answer pairs. */
  chunking?: Chunking;
  parentChunkSize?: number | null;
  embeddingModel: string;
  dimension: number;
  /** Hybrid search's vector share, 0..1; null: the server's default. */
  vectorWeight?: number | null;
  documentCount?: number;
  chunkCount?: number;
  createdAt: string;
}

/** GET /api/knowledge-bases/:id: the base, its embedder's coverage and the store/hybrid path searches take. */
export type KnowledgeBaseDetail = KnowledgeBase & { embedder: EmbedderCoverage; search?: string };

/** GET /api/knowledge-bases/:id's `embedder`: its language coverage (engine/knowledge/embedders/coverage.ts). */
export interface EmbedderCoverage {
  model: string;
  label: string;
  covers: string | null;
  uncoveredChunks: number | null;
  notice: string | null;
}

export interface KnowledgeDocument {
  id: string;
  title: string;
  mime: string;
  status: 'queued' | 'parsing' | 'embedding' | 'indexed' | 'failed';
  progress: number;
  error: { code: string; message: string } | null;
  chunkCount: number;
  /** While it embeds: chunks the document makes (null before it is parsed) and how many are embedded. */
  totalChunks?: number | null;
  embeddedChunks?: number;
  pages: number | null;
  /** Key–value metadata searches filter on; `enabled: false` leaves the document out of every search. */
  metadata?: Record<string, string | number | boolean>;
  enabled?: boolean;
  createdAt: string;
}

export interface ChunkPreview {
  characters: number;
  pages: number | null;
  total: number;
  chunks: Array<{
    index: number;
    text: string;
    page: number | null;
    headingPath?: string[];
    context?: { kind: 'parent' | 'answer'; text: string };
  }>;
}

export interface Hit {
  citation: string;
  documentId: string;
  title: string;
  chunkIndex: number;
  page: number | null;
  headingPath?: string[];
  /** The chunk, or its parent section (parent–child), or its answer (Q&A). */
  text: string;
  /** parent–child: the small chunk that matched. */
  matched?: string;
  /** Q&A: the question that matched. */
  question?: string;
  score: number;
  bm25: number | null;
  knn: number | null;
  /** Reranked searches: the rerank model's score (also `score`), and the retrieval's. */
  rerank?: number;
  retrievalScore?: number;
}

/** A refused request, with the server's `{ error: { code, message, path } }` (see upload-errors.ts for its wording). */
export class KnowledgeApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'KnowledgeApiError';
  }
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: { error?: { code?: string; message?: string; path?: string } } | undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined; // a proxy's HTML error page
  }
  if (!res.ok) {
    const e = body?.error;
    throw new KnowledgeApiError(
      e?.code ?? `HTTP_${res.status}`,
      e?.message ?? `HTTP ${res.status}`,
      res.status,
      e?.path,
    );
  }
  return body as T;
}

const base = '/api/knowledge-bases';
export const knowledgeApi = {
  list: () => fetch(base, { cache: 'no-store' }).then((r) => json<KnowledgeBase[]>(r)),
  create: (body: {
    name: string;
    chunkSize?: number;
    chunkOverlap?: number;
    chunking?: Chunking;
    parentChunkSize?: number;
    credentialId?: string;
    embeddingModel?: string;
  }) =>
    fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (r) => json<KnowledgeBase>(r),
    ),
  get: (id: string) => fetch(`${base}/${id}`, { cache: 'no-store' }).then((r) => json<KnowledgeBaseDetail>(r)),
  update: (id: string, body: { vectorWeight: number | null }) =>
    fetch(`${base}/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => json<KnowledgeBase>(r)),
  remove: (id: string) => fetch(`${base}/${id}`, { method: 'DELETE' }).then((r) => (r.ok ? undefined : json(r))),
  documents: (id: string) =>
    fetch(`${base}/${id}/documents`, { cache: 'no-store' }).then((r) => json<KnowledgeDocument[]>(r)),
  /** One upload of one or more files: the document, or `{ documents }` for several. */
  uploadFiles: (id: string, files: File[]) => {
    const form = new FormData();
    for (const f of files) form.append('file', f);
    return fetch(`${base}/${id}/documents`, { method: 'POST', body: form }).then((r) =>
      json<KnowledgeDocument | { documents: KnowledgeDocument[] }>(r),
    );
  },
  uploadText: (id: string, title: string, text: string) =>
    fetch(`${base}/${id}/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title, text }),
    }).then((r) => json<KnowledgeDocument>(r)),
  updateDocument: (id: string, docId: string, body: { enabled?: boolean; metadata?: unknown }) =>
    fetch(`${base}/${id}/documents/${docId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => json<KnowledgeDocument>(r)),
  /** A new knowledge base from an export file (GET …/export); its documents index in the background. */
  importFile: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return fetch(`${base}/import`, { method: 'POST', body: form }).then((r) =>
      json<{ knowledgeBase: KnowledgeBase; vectors: 'kept' | 'embedded' }>(r),
    );
  },
  exportUrl: (id: string) => `${base}/${id}/export`,
  /** The chunks a file would make in the knowledge base; nothing is kept. */
  previewChunks: (id: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return fetch(`${base}/${id}/chunk-preview`, { method: 'POST', body: form }).then((r) => json<ChunkPreview>(r));
  },
  removeDocument: (id: string, docId: string) =>
    fetch(`${base}/${id}/documents/${docId}`, { method: 'DELETE' }).then((r) => (r.ok ? undefined : json(r))),
  search: (
    id: string,
    body: {
      query: string;
      topK: number;
      mode: string;
      threshold?: number;
      rerank?: { credentialId: string; model: string; topN?: number };
      filter?: Record<string, unknown>;
    },
  ) =>
    fetch(`${base}/${id}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => json<{ hits: Hit[]; query: string; reranked?: { model: string; candidates: number } }>(r)),
};
