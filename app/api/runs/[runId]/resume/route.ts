import { z } from 'zod';
import { guarded } from '@/lib/server/auth/guard';
import { readJson } from '@/lib/http/body';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({
  fromNodeId: z.string().min(1).optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
});

export const POST = guarded(
  'edit',
  async (req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const found = await getRunOr404(app, caller, (await params).runId);
    const body = await readJson(req, bodySchema, { optional: true });
    const run = await app.runs.resume(found.id, body);
    return Response.json({ runId: run.id, status: run.status }, { status: 202 });
  },
);
