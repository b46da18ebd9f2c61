-- Evaluations (issue 36): a dataset version run on a workflow version and scored, row by row. The rows are copied
-- in, so results stay readable after the dataset changes; a row keeps its run id, so a restart resumes it rather than
-- running it again. A workflow's publish gate is kept beside them.

-- CreateTable
CREATE TABLE "evaluations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "version" INTEGER,
    "version_id" TEXT,
    "graph" JSONB,
    "engine" TEXT NOT NULL DEFAULT 'auto',
    "dataset_id" TEXT NOT NULL,
    "dataset_version" INTEGER NOT NULL,
    "dataset_name" TEXT NOT NULL DEFAULT '',
    "scorers" JSONB NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'manual',
    "error" JSONB,
    "created_by" TEXT,
    "owner_id" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_rows" (
    "evaluation_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "inputs" JSONB NOT NULL,
    "expected" JSONB,
    "tags" JSONB,
    "run_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "outputs" JSONB,
    "scores" JSONB,
    "error" JSONB,
    "duration_ms" INTEGER,
    "cost_usd" DOUBLE PRECISION,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "evaluation_rows_pkey" PRIMARY KEY ("evaluation_id","index")
);

-- CreateTable
CREATE TABLE "evaluation_gates" (
    "workflow_id" TEXT NOT NULL,
    "gate" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evaluation_gates_pkey" PRIMARY KEY ("workflow_id")
);

-- CreateIndex
CREATE INDEX "evaluations_workspace_id_workflow_id_created_at_idx" ON "evaluations"("workspace_id", "workflow_id", "created_at");

-- CreateIndex
CREATE INDEX "evaluations_status_idx" ON "evaluations"("status");

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_rows" ADD CONSTRAINT "evaluation_rows_evaluation_id_fkey" FOREIGN KEY ("evaluation_id") REFERENCES "evaluations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_gates" ADD CONSTRAINT "evaluation_gates_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

