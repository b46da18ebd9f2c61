/**
 * The server of the webhook-trigger bench (bench/webhook-trigger.bench.ts), in its own process: the route handlers
 * behind node:http with the bridge the production server uses for its direct routes (lib/http/node-bridge.mjs) —
 * in production both `/api/v1/…` and `/api/hooks/…` are served that way, without Next's router — plus the few
 * management routes the bench sets up with. The database and limits come from the environment. Prints
 * `LISTENING <base URL>`; stops on SIGTERM.
 */
import { getApp } from '@/lib/server/app';
import { startRouteServer } from '../test/support/route-server';

async function main() {
  setTimeout(() => process.exit(3), 30 * 60_000).unref(); // never outlive a bench that died
  await getApp();
  const server = await startRouteServer(
    [
      ['/api/health', await import('@/app/api/health/route')],
      ['/api/auth/setup', await import('@/app/api/auth/setup/route')],
      ['/api/auth/tokens', await import('@/app/api/auth/tokens/route')],
      ['/api/workflows', await import('@/app/api/workflows/route')],
      ['/api/workflows/:id/publish', await import('@/app/api/workflows/[id]/publish/route')],
      ['/api/workflows/:id/api-keys', await import('@/app/api/workflows/[id]/api-keys/route')],
      ['/api/workflows/:id/triggers', await import('@/app/api/workflows/[id]/triggers/route')],
      ['/api/runs', await import('@/app/api/runs/route')],
      ['/api/v1/workflows/:slug/run', await import('@/app/api/v1/workflows/[slug]/run/route')],
      ['/api/hooks/:hookId', await import('@/app/api/hooks/[hookId]/route')],
    ],
    { anonymous: true },
  );
  process.on('SIGTERM', () => {
    void server
      .close()
      .then(async () => (await getApp()).close())
      .catch(() => {})
      .finally(() => process.exit(0));
  });
  console.log(`LISTENING ${server.baseUrl}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
