/** How a knowledge base cuts its documents into chunks (prepare-document.ts). */
export const CHUNKING_MODES = ['size', 'parent-child', 'qa'] as const;
export type ChunkingMode = (typeof CHUNKING_MODES)[number];
