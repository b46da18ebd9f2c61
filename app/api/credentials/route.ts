import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

/**
 * The workspace's credentials, masked, and the environment's (`SECRET_<NAME>`, read-only). Editors may list them
 * (to pick one in a node); only admins create or delete them.
 */
export const GET = guarded('edit', async (_req, _ctx: unknown, { app, caller }) =>
  Response.json(await app.credentials.list(caller.workspaceId)),
);

/** `{ name, type: "openai" | "http_header" | "bearer" | "basic", data, hosts? }` → 201 `{ id, name, type, masked }`. */
export const POST = guarded('admin', async (req, _ctx: unknown, { app, caller }) => {
  const body = await readJson(req, z.unknown());
  const cred = await app.credentials.create(caller.workspaceId, body, caller.user, clientIp(req));
  return Response.json(cred, { status: 201 });
});
