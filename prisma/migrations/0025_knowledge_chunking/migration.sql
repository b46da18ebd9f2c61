-- Chunking per knowledge base (issue 46): parent-child and question-answer pairs beside chunks by size.
-- AlterTable
ALTER TABLE "knowledge_bases" ADD COLUMN     "chunking" TEXT NOT NULL DEFAULT 'size',
ADD COLUMN     "parent_chunk_size" INTEGER;

