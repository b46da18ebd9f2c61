import { auditAction } from '@/lib/server/auth/audit';
import { guarded } from '@/lib/server/auth/guard';
import { createDataset, presentSummary } from '@/lib/server/datasets/datasets';

export const dynamic = 'force-dynamic';

/** The workspace's evaluation datasets, newest first, without their rows. */
export const GET = guarded('read', async (_req, _ctx: unknown, { app, caller }) =>
  Response.json((await app.stores.datasets.list(caller.workspaceId)).map(presentSummary)),
);

/**
 * A new dataset: JSON `{ name, description?, rows: [{ inputs, expected?, tags? }] }`, or multipart with a CSV / JSONL
 * `file` (and `name`, `description`) → 201 `{ id, rowCount, … }`.
 */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const d = await createDataset(app, caller, req);
  await auditAction(app.stores.audit, caller, req, 'dataset.created', d.id, { name: d.name, rows: d.rowCount });
  return Response.json(presentSummary(d), { status: 201 });
});
