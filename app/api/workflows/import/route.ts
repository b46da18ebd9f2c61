import { z } from 'zod';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { importWorkflow } from '@/lib/server/workflows/import/import-workflow';

export const dynamic = 'force-dynamic';

/**
 * A PaiFlow export, a Dify DSL export or an n8n workflow as a new workflow (lib/server/workflows/import/); a name
 * the workspace already has becomes "name (2)", "name (3)" … Dify and n8n imports answer an `importReport` too.
 */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const { workflow, problems, importReport } = await importWorkflow(app, caller, await readJson(req, z.unknown()));
  return Response.json({ ...workflow, problems, ...(importReport ? { importReport } : {}) }, { status: 201 });
});
