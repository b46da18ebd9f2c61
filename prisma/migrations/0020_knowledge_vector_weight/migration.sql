-- A knowledge base's vector share in hybrid search (issue 46); null: the default.
ALTER TABLE "knowledge_bases" ADD COLUMN "vector_weight" DOUBLE PRECISION;
