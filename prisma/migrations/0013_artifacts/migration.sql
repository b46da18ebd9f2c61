-- Artifacts (issue 19): files produced by runs (speech, images). The bytes live in a blob store (a folder under
-- DATA_DIR, or S3-compatible storage) under storage_key; this row says what they are. An artifact belongs to the
-- workspace of its run's workflow, and goes with its run (the orphaned blob is swept afterwards).

-- CreateTable
CREATE TABLE "artifacts" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "artifacts_run_id_idx" ON "artifacts"("run_id");

-- CreateIndex: the retention sweep deletes the oldest first.
CREATE INDEX "artifacts_created_at_idx" ON "artifacts"("created_at");

-- CreateIndex: the orphan sweep asks which stored keys still have a row.
CREATE UNIQUE INDEX "artifacts_storage_key_key" ON "artifacts"("storage_key");

-- AddForeignKey
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
