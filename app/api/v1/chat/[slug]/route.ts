import { getApp } from '@/lib/server/app';
import { chatWorkflow } from '@/lib/server/chat/access';
import { publicChatConfig } from '@/lib/server/publishing/chat-settings';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/** A chat app's public face (title, welcome, suggestions, whether it needs a code): no credentials needed. */
export const GET = v1Route('slug', async (req, { params }: { params: Promise<{ slug: string }> }) => {
  const app = await getApp();
  return Response.json(publicChatConfig(await chatWorkflow(app, req, (await params).slug)));
});

export const OPTIONS = preflight('slug', 'GET');

serveDirectly('/api/v1/chat/:slug', { GET, OPTIONS });
