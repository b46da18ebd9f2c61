import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { getWorkflowOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

function dateParam(url: URL, name: 'from' | 'to', dflt: Date): Date {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return dflt;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime()))
    throw new PaiError('VALIDATION_ERROR', `${name} must be an ISO date or date-time`, { path: name });
  return d;
}

/**
 * The workflow's runs created in [from, to) (default: all until now), summed: `{ runs, inputTokens, outputTokens,
 * costUsd, unknownPriceRuns }`. `costUsd` sums the known costs; `unknownPriceRuns` runs used a model without a price.
 */
export const GET = guarded('read', async (req, { params }: Ctx, { app, caller }) => {
  const wf = await getWorkflowOr404(app, caller, (await params).id);
  const url = new URL(req.url);
  const from = dateParam(url, 'from', new Date(0));
  const to = dateParam(url, 'to', new Date(Date.now() + 1));
  if (from > to) throw new PaiError('VALIDATION_ERROR', 'from must not be after to', { path: 'from' });
  const cost = await app.stores.analytics.workflowCost({
    workflowId: wf.id,
    workspaceId: caller.workspaceId,
    from,
    to,
  });
  return Response.json({ workflowId: wf.id, from: from.toISOString(), to: to.toISOString(), ...cost });
});
