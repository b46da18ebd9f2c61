import { PaiError } from '@/engine/errors';
import { getApp } from '@/lib/server/app';
import { buildOpenApi } from '@/lib/server/publishing/openapi';
import { versionToRun } from '@/lib/server/publishing/published-runs';
import { corsOf, originOf, preflight, v1Route } from '@/lib/server/publishing/v1-http';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * The endpoint's OpenAPI 3.1 document (no key needed: it describes inputs and outputs, nothing inside the workflow).
 */
export const GET = v1Route('slug', async (req, { params }: { params: Promise<{ slug: string }> }) => {
  const app = await getApp();
  const { slug } = await params;
  const wf = await app.store.getWorkflowBySlug(slug);
  if (!wf) throw new PaiError('NOT_PUBLISHED', `no published workflow "${slug}"`);
  corsOf(req, wf);
  const raw = new URL(req.url).searchParams.get('version');
  const n = raw === null ? undefined : Number(raw);
  if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= 2_147_483_647)) {
    throw new PaiError('VALIDATION_ERROR', 'version must be a positive integer', { path: 'version' });
  }
  const version = await versionToRun(app, wf, n);
  return Response.json(buildOpenApi(originOf(req), wf, version), { headers: { 'cache-control': 'no-cache' } });
});

export const OPTIONS = preflight('slug', 'GET');

serveDirectly('/api/v1/workflows/:slug/openapi.json', { GET, OPTIONS });
