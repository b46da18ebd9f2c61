-- AlterTable: an editor test run's breakpoints and step mode (nodes it pauses before), kept across restarts.
ALTER TABLE "runs" ADD COLUMN     "debug" JSONB;
