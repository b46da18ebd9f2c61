/** Request shapes shared by the HTTP API and the service (zod; the API maps failures to 400 with a path). */
import { z } from 'zod';
import { DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE } from './chunker';
import { CHUNKING_MODES } from './chunking-modes';
import { nameSchema } from '../text/names';
import { documentMetadataSchema, metadataFilterSchema } from './metadata';
import { SEARCH_MODES } from './types';

/** A knowledge base's vector share in hybrid search (FusionOptions.vectorWeight); null: the default. */
export const vectorWeightSchema = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .describe(
    "Hybrid search's vector share, 0..1: 0 ranks by keywords (BM25) alone, 1 by the embedding alone; " +
      'null: the default (0.3)',
  );

/** PATCH /api/knowledge-bases/:id: what can change after creation; `{}` changes nothing. */
export const updateKnowledgeBaseSchema = z.strictObject({ vectorWeight: vectorWeightSchema.optional() });
export type UpdateKnowledgeBase = z.input<typeof updateKnowledgeBaseSchema>;

export const createKnowledgeBaseSchema = z
  .strictObject({
    name: nameSchema(200),
    description: z.string().max(2000).default(''),
    chunkSize: z.number().int().min(100).max(8000).default(DEFAULT_CHUNK_SIZE),
    chunkOverlap: z.number().int().min(0).max(4000).default(DEFAULT_CHUNK_OVERLAP),
    chunking: z
      .enum(CHUNKING_MODES)
      .default('size')
      .describe(
        'size: chunks of chunkSize; parent-child: small chunks are matched and their section is returned; ' +
          'qa: .csv / .jsonl question–answer pairs, the question matched and the answer returned',
      ),
    parentChunkSize: z
      .number()
      .int()
      .min(100)
      .max(16000)
      .optional()
      .describe('parent-child: the largest section a hit returns (default four times chunkSize)'),
    embeddingModel: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('"use-lite" (offline) or "openai:<model>"; default from the environment'),
    vectorWeight: vectorWeightSchema.optional(),
    credentialId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'An OpenAI-compatible credential of the workspace to embed with (default model: openai:text-embedding-3-small)',
      ),
  })
  .refine((v) => v.chunkOverlap <= v.chunkSize / 2, {
    message: 'chunkOverlap must be at most half of chunkSize',
    path: ['chunkOverlap'],
  })
  .refine((v) => v.parentChunkSize === undefined || v.chunking === 'parent-child', {
    message: 'parentChunkSize applies to parent-child chunking only',
    path: ['parentChunkSize'],
  })
  .refine((v) => v.parentChunkSize === undefined || v.parentChunkSize >= v.chunkSize, {
    message: 'parentChunkSize must be at least chunkSize',
    path: ['parentChunkSize'],
  });
export type CreateKnowledgeBase = z.input<typeof createKnowledgeBaseSchema>;

export const textDocumentSchema = z.strictObject({
  title: nameSchema(500, 'title is required'),
  text: z.string().min(1, 'text is required'),
  mime: z.enum(['text/plain', 'text/markdown', 'text/html', 'text/csv', 'application/jsonl']).default('text/plain'),
  metadata: documentMetadataSchema.optional(),
});

/** PATCH /api/knowledge-bases/:id/documents/:docId: new metadata (replacing it whole), or on / off for searches. */
export const documentUpdateSchema = z.strictObject({
  metadata: documentMetadataSchema.optional(),
  enabled: z.boolean().optional().describe('false: kept, but left out of every search'),
});
export type DocumentUpdate = z.input<typeof documentUpdateSchema>;

/** A rerank step: `topN` candidates are retrieved and scored by `model` through the credential; `topK` come out. */
export const rerankSchema = z
  .strictObject({
    credentialId: z.string().min(1).max(100).describe('A credential of the workspace for the rerank API'),
    model: z.string().trim().min(1).max(200).describe('The rerank model, e.g. BAAI/bge-reranker-v2-m3'),
    topN: z
      .number()
      .int()
      .min(1)
      .max(200)
      .optional()
      .describe('Candidates to rerank; default four times topK, at least 20'),
  })
  .describe('Rerank the hits with a rerank model (the /rerank API of SiliconFlow, Jina, Xinference, vLLM…)');

export const searchSchema = z.strictObject({
  query: z.string().trim().min(1, 'query is required').max(10_000),
  topK: z.number().int().min(1).max(100).default(5),
  threshold: z.number().min(0).optional(),
  mode: z.enum(SEARCH_MODES).default('hybrid'),
  documentIds: z.array(z.string().min(1).max(200)).max(1000).optional(),
  rerank: rerankSchema.optional(),
  filter: metadataFilterSchema.optional(),
});
export type SearchInput = z.input<typeof searchSchema>;
/** A search request after defaults are applied. */
export type SearchQuery = z.output<typeof searchSchema>;
