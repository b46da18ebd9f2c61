import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ id: string }> };

const testSchema = z.strictObject({
  /** The model a tiny completion goes to when the provider lists none (default: the catalogue's first chat model). */
  model: z.string().trim().min(1).max(200).optional(),
});

/**
 * `{ model? }` (or no body) → 200 `{ ok, latencyMs, models?, model?, error?: { code, message } }`: the provider's
 * `/models` where it has one, else one tiny completion. A refused key, an unreachable host or an address the SSRF
 * guard refuses is `ok: false` with the reason; only a credential that is not a model provider is an error (400).
 */
export const POST = guarded('edit', async (req, { params }: Ctx, { app, caller }) => {
  const body = await readJson(req, testSchema, { optional: true });
  return Response.json(await app.providers.test(caller.workspaceId, (await params).id, body.model));
});
