import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { authenticate } from '@/lib/server/auth/authenticate';
import { can } from '@/lib/server/auth/policy';

export const dynamic = 'force-dynamic';

const DB_TIMEOUT_MS = 2000;

/**
 * Which implementation each part uses (no paths or hosts), 200 when every part works and 503 naming the parts that
 * do not (`down: { db?, bus? }`). A signed-in admin of the request's workspace also gets `details` (data folder,
 * hosts).
 */
export const GET = route(async (req: Request) => {
  const app = await getApp();
  const health = app.health();
  const down = { ...health.down };
  const dbDown = await databaseProblem(app);
  if (dbDown) down.db = dbDown;
  const ok = Object.keys(down).length === 0;
  const body: Record<string, unknown> = { ok, ...health, down };
  if (await isAdmin(app, req)) body.details = app.healthDetails();
  return Response.json(body, { status: ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
});

async function databaseProblem(app: Awaited<ReturnType<typeof getApp>>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${DB_TIMEOUT_MS} ms`), DB_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      app.stores.ping().then(
        () => null,
        () => 'the database did not answer SELECT 1',
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Health is public; only a signed-in admin (cookie or token) sees where the parts live. Anyone else: no details. */
async function isAdmin(app: Awaited<ReturnType<typeof getApp>>, req: Request): Promise<boolean> {
  if (!req.headers.get('authorization') && !req.headers.get('cookie')) return false;
  try {
    const caller = await authenticate(app.accounts, req);
    return can(caller.role, 'admin');
  } catch {
    return false;
  }
}
