import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * The knowledge base as one JSON Lines file (engine/knowledge/kb-transfer.ts): its settings, its indexed documents
 * and their chunks with their vectors, streamed as it is read; POST /api/knowledge-bases/import makes a copy of it.
 */
export const GET = guarded('read', async (_req, { params }: Ctx, { app, caller }) => {
  const { kb, lines } = await app.knowledge.inWorkspace(caller.workspaceId).exportKnowledgeBase((await params).id);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const file = `${kb.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 80) || kb.id}.paiflow-kb.jsonl`;
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition':
        `attachment; filename="${kb.id}.paiflow-kb.jsonl"; ` + `filename*=UTF-8''${encodeURIComponent(file)}`,
      'cache-control': 'no-store',
    },
  });
});
