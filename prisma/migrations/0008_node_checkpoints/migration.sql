-- CreateTable: a node's durable state within a run (agent rounds, plan steps) and a person's answer to its pause.
CREATE TABLE "node_checkpoints" (
    "run_id" TEXT NOT NULL,
    "node_key" TEXT NOT NULL,
    "state" JSONB,
    "input_hash" TEXT,
    "answer" JSONB,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "node_checkpoints_pkey" PRIMARY KEY ("run_id","node_key")
);

-- AddForeignKey
ALTER TABLE "node_checkpoints" ADD CONSTRAINT "node_checkpoints_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
