/**
 * One app replica for the schedule tests (test/api/schedules-*-on-postgres.test.ts): the real app (createApp, so
 * its scheduler starts as in production) on the database the environment names (DATABASE_URL + DATABASE_SCHEMA),
 * until SIGTERM. Prints `READY <runs owner id>` once the app is up (the owner id is on every run it executes).
 *
 *   DATABASE_URL=… DATABASE_SCHEMA=… SCHEDULER_POLL_MS=200 npx tsx test/support/scheduler-replica.ts
 */
import { createApp } from '@/lib/server/app';

async function main() {
  // Never outlive a test that died without stopping us.
  setTimeout(() => process.exit(3), 300_000).unref();
  const app = await createApp();
  if (!app.scheduler) throw new Error('the scheduler did not start (SCHEDULER=0?)');
  process.on('SIGTERM', () => {
    void app
      .close()
      .catch(() => {})
      .finally(() => process.exit(0));
  });
  console.log(`READY ${app.runs.ownerId}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
