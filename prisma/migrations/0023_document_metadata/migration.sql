-- Document metadata and switching a document off without deleting it (issue 46): searches filter on both.
-- AlterTable
ALTER TABLE "knowledge_documents" ADD COLUMN     "enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "metadata" JSONB NOT NULL DEFAULT '{}';

