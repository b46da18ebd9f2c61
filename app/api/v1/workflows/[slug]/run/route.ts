import { getApp } from '@/lib/server/app';
import { readJson } from '@/lib/http/body';
import { authorizeForSlug } from '@/lib/server/publishing/api-keys';
import { runBodySchema, runPublished } from '@/lib/server/publishing/published-runs';
import { originOf, preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * Runs a published workflow. Order of checks: key (401) and its rate limit (429), then the workflow (404 / 403 for
 * another workflow's key), then the body (413 / 415 / 400), then the per-workflow concurrency cap (429).
 */
export const POST = v1Route('slug', async (req, { params }: { params: Promise<{ slug: string }> }) => {
  const app = await getApp();
  const { key, workflow: wf } = await authorizeForSlug(app, req, (await params).slug);
  const body = await readJson(req, runBodySchema, { limit: app.config.maxBodyBytes });
  return runPublished(app, req, originOf(req), wf, key, body);
});

export const OPTIONS = preflight('slug', 'POST');

serveDirectly('/api/v1/workflows/:slug/run', { POST, OPTIONS });
