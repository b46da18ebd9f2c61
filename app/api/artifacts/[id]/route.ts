import { guarded } from '@/lib/server/auth/guard';
import { artifactResponse } from '@/lib/server/runs/artifact-response';
import { serveDirectly } from '@/lib/http/direct-routes';

export const dynamic = 'force-dynamic';

/**
 * A file a run of the caller's workspace produced (speech, images): its bytes, served inline with its content type
 * (lib/server/runs/artifact-response.ts). Another workspace's artifact is 404, as if it did not exist.
 */
export const GET = guarded('read', async (req, { params }: { params: Promise<{ id: string }> }, { app, caller }) => {
  const stored = await app.artifacts.readInWorkspace((await params).id, caller.workspaceId);
  // Never embedded by another site (a stored image is this origin's, not a public CDN's).
  return artifactResponse(req, stored, { 'cross-origin-resource-policy': 'same-origin' });
});

// Served by server.mjs without Next's router, which would drop the Content-Length (lib/http/direct-routes.ts).
serveDirectly('/api/artifacts/:id', { GET });
