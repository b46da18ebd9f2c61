-- A knowledge base may embed with an OpenAI-compatible credential of its workspace (issue 15) instead of OPENAI_API_KEY.
-- AlterTable
ALTER TABLE "knowledge_bases" ADD COLUMN     "credential_id" TEXT;
