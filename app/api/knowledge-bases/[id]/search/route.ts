import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { searchSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * { query, topK? (5), threshold?, mode? ('hybrid' | 'bm25' | 'vector'), documentIds?, rerank? { credentialId, model,
 * topN? } } → { query, mode, hits: [ { citation, … } ], notice?, reranked? }
 */
export const POST = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const kbs = app.knowledge.inWorkspace(caller.workspaceId);
  const kb = await kbs.getKnowledgeBase((await params).id); // 404 before reading the body
  const body = await readJson(req, searchSchema);
  const res = await kbs.search(kb.id, body, { signal: req.signal });
  return Response.json(res);
});
