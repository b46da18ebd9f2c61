import { z } from 'zod';
import { getApp } from '@/lib/server/app';
import { readJson } from '@/lib/http/body';
import { clientIp } from '@/lib/server/auth/request-info';
import { chatWorkflow, takeOrRefuse } from '@/lib/server/chat/access';
import { openSession } from '@/lib/server/chat/session';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

const sessionBodySchema = z.strictObject({ code: z.string().max(128).optional() });

/**
 * Opens a chat session for the page (`{ token, expiresAt }`; the token goes in `Authorization: Bearer`): at once for
 * a public chat, with the right `code` for one behind an access code (401 without, 403 wrong, 429 too many wrong).
 */
export const POST = v1Route('slug', async (req, { params }: { params: Promise<{ slug: string }> }) => {
  const app = await getApp();
  const wf = await chatWorkflow(app, req, (await params).slug);
  takeOrRefuse(app, `chat-session:${clientIp(req)}`); // sessions are free to open: not at any rate

  const body = await readJson(req, sessionBodySchema, { optional: true, limit: app.config.maxBodyBytes });
  const s = openSession(app, req, wf.id, wf.slug, wf.chat, body.code);
  return Response.json({ token: s.token, expiresAt: new Date(s.expiresAt).toISOString() }, { status: 201 });
});

export const OPTIONS = preflight('slug', 'POST');

serveDirectly('/api/v1/chat/:slug/session', { POST, OPTIONS });
