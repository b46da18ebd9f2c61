import { PaiError } from '@/engine/errors';
import { readJson } from '@/lib/http/body';
import { auditAction } from '@/lib/server/auth/audit';
import { guarded } from '@/lib/server/auth/guard';
import { getDatasetOr404, presentDataset, versionParam } from '@/lib/server/datasets/datasets';
import { patchDatasetSchema } from '@/lib/server/datasets/dataset-schemas';
import type { DatasetRow } from '@/engine/store/datasets';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

/** The dataset with the rows of its current version, or of `?version=n`. */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) =>
  Response.json(presentDataset(await getDatasetOr404(app, caller, (await params).id, versionParam(req)))),
);

/** Renames, describes, or replaces the rows (`rows`: written as the next version; earlier versions are kept). */
export const PATCH = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  const body = await readJson(req, patchDatasetSchema, { limit: app.config.maxBodyBytes });
  const d = await app.stores.datasets.update(caller.workspaceId, id, {
    ...body,
    rows: body.rows as DatasetRow[] | undefined,
  });
  if (!d) throw new PaiError('DATASET_NOT_FOUND', `dataset ${id} not found`);
  return Response.json(presentDataset(d));
});

/** Deletes the dataset and every version of it → 204. */
export const DELETE = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const { id } = await params;
  if (!(await app.stores.datasets.delete(caller.workspaceId, id)))
    throw new PaiError('DATASET_NOT_FOUND', `dataset ${id} not found`);
  await auditAction(app.stores.audit, caller, req, 'dataset.deleted', id);
  return new Response(null, { status: 204 });
});
