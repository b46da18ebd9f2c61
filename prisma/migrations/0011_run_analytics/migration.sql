-- Run analytics (GET /api/runs, GET /api/workflows/:id/stats): the workspace-wide run list pages newest first by
-- the keyset (created_at, id). A list or stats of one workflow uses the existing (workflow_id, created_at) index.

-- CreateIndex
CREATE INDEX "runs_created_at_id_idx" ON "runs"("created_at", "id");
