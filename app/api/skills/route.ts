import { readJson } from '@/lib/http/body';
import { guarded } from '@/lib/server/auth/guard';
import { clientIp } from '@/lib/server/auth/request-info';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

/** The workspace's skills (SKILLS_DIR and uploads): name, description, source, files. */
export const GET = guarded('read', async (_req, _ctx: unknown, { app, caller }) =>
  Response.json(await app.skills.list(caller.workspaceId)),
);

/**
 * Upload: `{ files: { "SKILL.md": "...", "reference/x.md": "..." } }` → 201 (new) or 200 (replaced the upload of that
 * name) with the skill; a bad SKILL.md or path is 400 SKILL_INVALID with the path.
 */
export const POST = guarded('edit', async (req, _ctx: unknown, { app, caller }) => {
  const { files } = await readJson(req, z.strictObject({ files: z.unknown().optional() }));
  const r = await app.skills.upload(caller.workspaceId, files, caller.user, clientIp(req));
  return Response.json(r.skill, { status: r.created ? 201 : 200 });
});
