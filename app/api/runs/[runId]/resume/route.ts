import { z } from 'zod';
import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { readJson } from '@/lib/http/body';

export const dynamic = 'force-dynamic';

const bodySchema = z.object({
  fromNodeId: z.string().min(1).optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
});

export const POST = route(async (req, { params }: { params: Promise<{ runId: string }> }) => {
  const app = await getApp();
  const body = await readJson(req, bodySchema, { optional: true });
  const run = await app.runs.resume((await params).runId, body);
  return Response.json({ runId: run.id, status: run.status }, { status: 202 });
});
