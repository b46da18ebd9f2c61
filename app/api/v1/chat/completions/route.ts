import { serveDirectly } from '@/lib/http/direct-routes';
import { chatCompletions } from '@/lib/server/chat-completions/handler';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';

export const dynamic = 'force-dynamic';

/**
 * OpenAI-compatible chat completions: `model` is a published workflow's slug, the Bearer token one of its API keys.
 * Mapping and answers: lib/server/chat-completions/. The route has no path parameter, so the handlers are called
 * without one: CORS falls back to the server default (CORS_ORIGINS) until the handler knows the workflow (corsOf).
 */
const handler = v1Route('slug', chatCompletions);
export const POST = (req: Request) => handler(req, {});

const options = preflight('slug', 'POST');
export const OPTIONS = (req: Request) => options(req);

serveDirectly('/api/v1/chat/completions', { POST, OPTIONS });
