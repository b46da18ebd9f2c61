import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';
import { searchSchema } from '@/engine/knowledge/schemas';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * { query, topK? (5), threshold?, mode? ('hybrid' | 'bm25' | 'vector') } → { query, mode, hits: [ { citation, … } ] }
 */
export const POST = route(async (req, { params }: Ctx) => {
  const app = await getApp();
  const body = await readJson(req, searchSchema);
  const res = await app.knowledge.search((await params).id, body, { signal: req.signal });
  return Response.json(res);
});
