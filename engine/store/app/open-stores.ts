/**
 * Opens the app's database — PostgreSQL when a URL is given, else the embedded PGlite under `dataDir` — migrates it,
 * and answers its stores. Everything it needs is in `opts` (the app's from its settings); unset, the defaults.
 */
import { openDatabase, type OpenOptions } from '../prisma/database';
import type { PrismaStoreOptions } from '../prisma/prisma-store';
import { storesOn } from './prisma-stores';
import type { Stores } from './stores';

export type OpenStoresOptions = OpenOptions & PrismaStoreOptions;

export async function openStores(opts: OpenStoresOptions): Promise<Stores> {
  const { syncSnapshotCommits, ...open } = opts;
  return storesOn(await openDatabase(open), { syncSnapshotCommits });
}
