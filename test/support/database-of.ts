/**
 * The database behind an app's stores, for tests that set up or inspect rows the app's interfaces do not offer (a
 * session made stale, a stored ciphertext, a count of runs). Application code never reaches it: it has app.stores.
 */
import type { Database } from '@/engine/store/prisma/database';
import { databaseBehind } from '@/engine/store/app/prisma-stores';
import type { Stores } from '@/engine/store/app/stores';

export function databaseOf(app: { stores: Stores }): Database {
  return databaseBehind(app.stores);
}
