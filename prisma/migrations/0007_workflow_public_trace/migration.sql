-- AlterTable: whether API-key holders may read a published run's node trace (without node inputs and outputs).
ALTER TABLE "workflows" ADD COLUMN     "public_trace" BOOLEAN NOT NULL DEFAULT false;
