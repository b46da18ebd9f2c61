/**
 * Opens the app's database — PostgreSQL when a URL is given, else the embedded PGlite under `dataDir` — migrates it,
 * and answers its stores.
 */
import { openDatabase, type OpenOptions } from '../prisma/database';
import { storesOn } from './prisma-stores';
import type { Stores } from './stores';

export type OpenStoresOptions = Pick<OpenOptions, 'databaseUrl' | 'dataDir' | 'schema' | 'threadSpinMs'>;

export async function openStores(opts: OpenStoresOptions): Promise<Stores> {
  return storesOn(await openDatabase(opts));
}
