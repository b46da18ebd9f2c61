import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const app = await getApp();
  await app.db.prisma.$queryRawUnsafe('SELECT 1');
  return Response.json({ ok: true, ...app.health() });
});
