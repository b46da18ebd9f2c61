/**
 * The knowledge catalogue: knowledge bases and documents with their indexing status. The engine sees this
 * interface; engine/store implements it on PGlite and PostgreSQL (Stores.knowledgeCatalog).
 */
import type { ErrorJson } from '../errors';
import type { ChunkingMode } from './chunking-modes';
import type { DocumentMetadata, MetadataFilter } from './metadata';

export const DOCUMENT_STATUSES = ['queued', 'parsing', 'embedding', 'indexed', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const UNFINISHED_STATUSES: DocumentStatus[] = ['queued', 'parsing', 'embedding'];

export interface KnowledgeBaseRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  chunkSize: number;
  chunkOverlap: number;
  /** How documents are cut into chunks (chunking-modes.ts). */
  chunking: ChunkingMode;
  /** parent-child: the largest parent section; null: four times chunkSize. */
  parentChunkSize: number | null;
  embeddingModel: string;
  /** The OpenAI-compatible credential it embeds with; null: the server's OPENAI_API_KEY (or the offline model). */
  credentialId: string | null;
  dimension: number;
  /** Hybrid search's vector share, 0..1; null: the default (DEFAULT_VECTOR_WEIGHT). */
  vectorWeight: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface KnowledgeBaseSummary extends KnowledgeBaseRecord {
  documentCount: number;
  chunkCount: number;
}

export interface DocumentRecord {
  id: string;
  knowledgeBaseId: string;
  title: string;
  mime: string;
  status: DocumentStatus;
  /** 0..1 */
  progress: number;
  error: ErrorJson | null;
  /** Chunks of the indexed document (0 until it is indexed). */
  chunkCount: number;
  /** Chunks the document makes, known once it is parsed (null before): "embedding n of m chunks". */
  totalChunks: number | null;
  /** Chunks embedded so far (of totalChunks). */
  embeddedChunks: number;
  charCount: number;
  byteSize: number;
  pages: number | null;
  /** Key–value metadata searches may filter on (metadata.ts). */
  metadata: DocumentMetadata;
  /** false: kept, but left out of every search. */
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  indexedAt: string | null;
}

export type NewKnowledgeBase = Omit<
  KnowledgeBaseRecord,
  'createdAt' | 'updatedAt' | 'vectorWeight' | 'chunking' | 'parentChunkSize'
> & {
  vectorWeight?: number | null;
  chunking?: ChunkingMode;
  parentChunkSize?: number | null;
};
/** What can change on a knowledge base after it is made (its model, dimension and chunking cannot). */
export type KnowledgeBasePatch = Partial<Pick<KnowledgeBaseRecord, 'vectorWeight'>>;
export type NewDocument = Pick<DocumentRecord, 'id' | 'knowledgeBaseId' | 'title' | 'mime' | 'byteSize'> &
  Partial<Pick<DocumentRecord, 'metadata'>>;
export type DocumentPatch = Partial<
  Pick<
    DocumentRecord,
    | 'status'
    | 'progress'
    | 'error'
    | 'chunkCount'
    | 'totalChunks'
    | 'embeddedChunks'
    | 'charCount'
    | 'pages'
    | 'indexedAt'
    | 'metadata'
    | 'enabled'
  >
>;

export interface KnowledgeCatalog {
  createKnowledgeBase(kb: NewKnowledgeBase): Promise<KnowledgeBaseRecord>;
  /** `workspaceId`: a knowledge base of another workspace is null, as if it did not exist. */
  getKnowledgeBase(id: string, workspaceId?: string): Promise<KnowledgeBaseRecord | null>;
  listKnowledgeBases(workspaceId?: string): Promise<KnowledgeBaseSummary[]>;
  /** How many knowledge bases there are, in every workspace. */
  countKnowledgeBases(): Promise<number>;
  deleteKnowledgeBase(id: string): Promise<boolean>;
  /** Changes a knowledge base's settings; null when it does not exist. */
  updateKnowledgeBase(id: string, patch: KnowledgeBasePatch): Promise<KnowledgeBaseRecord | null>;
  createDocument(doc: NewDocument): Promise<DocumentRecord>;
  getDocument(knowledgeBaseId: string, id: string): Promise<DocumentRecord | null>;
  listDocuments(knowledgeBaseId: string): Promise<DocumentRecord[]>;
  /** Documents of a KB with this exact title, oldest first. */
  findDocumentsByTitle(knowledgeBaseId: string, title: string): Promise<DocumentRecord[]>;
  updateDocument(id: string, patch: DocumentPatch): Promise<DocumentRecord | null>;
  deleteDocument(id: string): Promise<boolean>;
  /**
   * Documents still queued/parsing/embedding that were last touched before `before`: their ids (read at every
   * start-up, so only the columns every release has had).
   */
  listStaleDocuments(before: Date): Promise<Array<Pick<DocumentRecord, 'id' | 'knowledgeBaseId'>>>;
  /**
   * The ids of the knowledge base's documents a search may return: enabled ones whose metadata matches `filter`.
   * null when that is every document (no filter, none disabled), so the search need not name them.
   */
  searchableDocumentIds(knowledgeBaseId: string, filter?: MetadataFilter): Promise<string[] | null>;
}
