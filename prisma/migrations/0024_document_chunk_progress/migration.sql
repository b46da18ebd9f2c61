-- Per-document indexing progress in chunks (issue 46): "embedding n of m chunks".
-- AlterTable
ALTER TABLE "knowledge_documents" ADD COLUMN     "embedded_chunks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "total_chunks" INTEGER;
