import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * `{ models: [{ id, kind }], source: "provider" | "catalogue" }`: the provider's own list when it answers (kept five
 * minutes), else PaiFlow's catalogue for that provider. `?kind=chat|embedding|rerank|tts|image` keeps one kind.
 */
export const GET = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const list = await app.providers.models(caller.workspaceId, (await params).id);
  const kind = new URL(req.url).searchParams.get('kind');
  return Response.json(kind ? { ...list, models: list.models.filter((m) => m.kind === kind) } : list);
});
