import { getApp } from '@/lib/server/app';
import { readJson } from '@/lib/http/body';
import { authorizeChat } from '@/lib/server/chat/access';
import { feedbackBodySchema, recordFeedback } from '@/lib/server/chat/turns';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ slug: string; messageId: string }> };

/** 👍 / 👎 on an answer, with an optional comment (`{ rating: "up" | "down", comment? }`); a second one replaces it. */
export const POST = v1Route('slug', async (req, { params }: Ctx) => {
  const app = await getApp();
  const p = await params;
  const { workflow, owner } = await authorizeChat(app, req, p.slug);
  const body = await readJson(req, feedbackBodySchema, { limit: app.config.maxBodyBytes });
  return Response.json(await recordFeedback(app, workflow, owner, p.messageId, body));
});

export const OPTIONS = preflight('slug', 'POST');

serveDirectly('/api/v1/chat/:slug/messages/:messageId/feedback', { POST, OPTIONS });
