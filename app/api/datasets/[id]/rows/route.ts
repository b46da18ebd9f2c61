import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { appendRows, getDatasetOr404, presentSummary, rowsToAppend } from '@/lib/server/datasets/datasets';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/**
 * Adds rows after the current ones as the next version: `{ rows: [...] }`, or `{ runId, expectOutputs?, tags? }`
 * to add a past run's inputs (and its outputs as the expectation) → 200 the dataset's summary.
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  // Another workspace's dataset is a 404 whatever the body says.
  const current = await getDatasetOr404(app, caller, id);
  const rows = await rowsToAppend(app, caller, await readJson(req, z.unknown(), { limit: app.config.maxBodyBytes }));
  return Response.json(presentSummary(await appendRows(app, caller, current, rows)));
});
