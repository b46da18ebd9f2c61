import { getApp } from '@/lib/server/app';
import { authorizeChat } from '@/lib/server/chat/access';
import { conversationOf, presentMessage } from '@/lib/server/chat/turns';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ slug: string; id: string }> };

/** A conversation's messages in order, with each answer's citations and feedback; only its owner may read it. */
export const GET = v1Route('slug', async (req, { params }: Ctx) => {
  const app = await getApp();
  const p = await params;
  const { workflow, owner } = await authorizeChat(app, req, p.slug);
  const c = await conversationOf(app, workflow, owner, p.id);
  const messages = await app.stores.chat.listMessages(c.id);
  return Response.json({ conversationId: c.id, title: c.title, messages: messages.map(presentMessage) });
});

export const OPTIONS = preflight('slug', 'GET');

serveDirectly('/api/v1/chat/:slug/conversations/:id/messages', { GET, OPTIONS });
