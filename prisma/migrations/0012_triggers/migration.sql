-- Triggers (issue 18): webhook and schedule triggers of a workflow, the MCP opt-in of a published workflow, the
-- per-workflow secret that signs completion callbacks, and the trigger each run came from.

-- CreateTable: a webhook's id is its unguessable URL part (/api/hooks/<id>); a schedule's next_run_at is the tick the
-- scheduler claims next (compare-and-set on it, so one replica wins each tick).
CREATE TABLE "triggers" (
    "id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "config" JSONB NOT NULL,
    "secret" TEXT,
    "next_run_at" TIMESTAMP(3),
    "last_run_at" TIMESTAMP(3),
    "last_run_id" TEXT,
    "last_error" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "triggers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "triggers_workflow_id_idx" ON "triggers"("workflow_id");

-- CreateIndex
CREATE INDEX "triggers_type_enabled_next_run_at_idx" ON "triggers"("type", "enabled", "next_run_at");

-- AddForeignKey
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable: which trigger started a run (kind: webhook | schedule | mcp; null: the editor or the published API).
ALTER TABLE "runs" ADD COLUMN     "trigger_kind" TEXT,
ADD COLUMN     "trigger_id" TEXT;

-- AlterTable: MCP opt-in; the callback signing secret (encrypted with the credential master key).
ALTER TABLE "workflows" ADD COLUMN     "mcp" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "callback_secret" TEXT;
