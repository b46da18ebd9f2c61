-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "cors_origins" JSONB;

