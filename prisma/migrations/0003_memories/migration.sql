-- Long-term agent memories (issue 5). Embeddings are JSONB number arrays (no pgvector: PGlite 0.5 does not ship it);
-- recall ranks candidates in the application. `scope_key` is 'global' or 'workflow:<id>' so that content is
-- de-duplicated per scope by a plain unique index (a NULL workflow_id would not collide in a unique index).

-- CreateTable
CREATE TABLE "agent_memories" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "workflow_id" TEXT,
    "scope_key" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "embedder_id" TEXT NOT NULL,
    "embedding" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_memories_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_memories_scope_key_content_hash_key" ON "agent_memories"("scope_key", "content_hash");

-- CreateIndex
CREATE INDEX "agent_memories_scope_key_embedder_id_updated_at_idx" ON "agent_memories"("scope_key", "embedder_id", "updated_at");
