import { guarded } from '@/lib/server/auth/guard';
import { workflowStats } from '@/lib/server/runs/analytics';

export const dynamic = 'force-dynamic';

/** Runs per day, success rate, duration percentiles, tokens and the slowest / most failing nodes of a workflow. */
export const GET = guarded('read', async (req, { params }: { params: Promise<{ id: string }> }, { app, caller }) =>
  Response.json(await workflowStats(app, caller, (await params).id, req)),
);
