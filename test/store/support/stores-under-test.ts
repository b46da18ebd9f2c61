/**
 * What the stores' conformance suites (describe-*.ts) run against: a factory of fresh stores on one database kind,
 * and a few records they all need (a workflow, a second workspace).
 */
import { randomUUID } from 'node:crypto';
import { storesOn } from '@/engine/store/app/prisma-stores';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { openTestDb } from '../../support/databases';
import { GRAPH } from './run-store-fixtures';

export interface StoresUnderTest {
  stores: Stores;
  dispose(): Promise<void>;
}

/** Opens fresh stores (a fresh database) for one suite. */
export type StoresFactory = () => Promise<StoresUnderTest>;

/** Stores on a new PGlite data folder or a new PostgreSQL schema. */
export function storesOnTestDb(kind: 'pglite' | 'postgres'): StoresFactory {
  return async () => {
    const tdb = await openTestDb(kind);
    return { stores: storesOn(tdb.db), dispose: () => tdb.dispose() };
  };
}

export const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** A new workflow's id, in `workspaceId` (default: the default workspace). */
export async function newWorkflow(stores: Stores, name = 'conformance', workspaceId = DEFAULT_WORKSPACE_ID) {
  const wf = await stores.runs.createWorkflow({
    id: newId('wf'),
    name,
    description: '',
    graph: GRAPH,
    engine: 'auto',
    workspaceId,
  });
  return wf.id;
}

/** A new user, and a new workspace they own. */
export async function newWorkspace(stores: Stores) {
  const user = await stores.accounts.createUser({
    id: newId('usr'),
    email: `${newId('u')}@example.test`,
    name: 'Someone',
    passwordHash: 'scrypt$not-a-real-hash',
  });
  const workspace = await stores.accounts.createWorkspace({ id: newId('ws'), name: 'Elsewhere', ownerId: user.id });
  return { user, workspaceId: workspace.id };
}
