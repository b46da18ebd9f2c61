import { getApp } from '@/lib/server/app';
import { readJson } from '@/lib/http/body';
import { authorizeChat } from '@/lib/server/chat/access';
import { chatMessageBodySchema, sendMessage } from '@/lib/server/chat/turns';
import { originOf, preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * One turn of a conversation (a new one without `conversationId`): SSE of the answer's tokens ending with
 * `event: done` `{ conversationId, messageId, answer, citations, runId }`, or that JSON with `stream: false`.
 * Authorised by one of the workflow's API keys or the page's chat session (lib/server/chat/access.ts).
 */
export const POST = v1Route('slug', async (req, { params }: { params: Promise<{ slug: string }> }) => {
  const app = await getApp();
  const { workflow, owner, apiKeyId } = await authorizeChat(app, req, (await params).slug);
  const body = await readJson(req, chatMessageBodySchema, { limit: app.config.maxBodyBytes });
  return sendMessage(app, req, originOf(req), workflow, { owner, apiKeyId }, body);
});

export const OPTIONS = preflight('slug', 'POST');

serveDirectly('/api/v1/chat/:slug/messages', { POST, OPTIONS });
