import { serveDirectly } from '@/lib/http/direct-routes';
import { authorize } from '@/lib/server/publishing/api-keys';
import { getApp } from '@/lib/server/app';
import { errorAnswer } from '@/lib/server/chat-completions/answers';
import { callableWorkflows } from '@/lib/server/mcp/callable-workflows';
import { preflight, v1Route } from '@/lib/server/publishing/v1-http';

export const dynamic = 'force-dynamic';

/**
 * The published workflows the key can call, as OpenAI's models list: `id` is the slug (the `model` of
 * /api/v1/chat/completions), `created` when its current version was published. So an OpenAI client's
 * `models.list()` works, and tools that pick a model from the list find the workflow. Errors as on chat completions
 * (PaiFlow's code and message plus OpenAI's `type` and `param`).
 */
async function listModels(req: Request): Promise<Response> {
  try {
    const app = await getApp();
    const key = await authorize(app, req);
    const data = (await callableWorkflows(app, key)).map(({ workflow, version }) => ({
      id: workflow.slug,
      object: 'model' as const,
      created: Math.floor(Date.parse(version.createdAt) / 1000),
      owned_by: 'paiflow',
    }));
    return Response.json({ object: 'list', data });
  } catch (e) {
    return errorAnswer(e, req);
  }
}

const handler = v1Route('slug', listModels);
export const GET = (req: Request) => handler(req, {});

const options = preflight('slug', 'GET');
export const OPTIONS = (req: Request) => options(req);

serveDirectly('/api/v1/models', { GET, OPTIONS });
