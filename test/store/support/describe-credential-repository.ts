/**
 * The CredentialRepository conformance suite, written once and run on every database kind
 * (test/store/credentials-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialRecord } from '@/engine/store/credentials';
import type { Stores } from '@/engine/store/app/stores';
import { newId, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

type NewCredential = Omit<CredentialRecord, 'createdAt'> & { createdBy: string | null };

export function describeCredentialRepository(label: string, open: StoresFactory) {
  describe(`CredentialRepository conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const credential = (workspaceId: string, patch: Partial<NewCredential> = {}): NewCredential => ({
      id: newId('cred'),
      workspaceId,
      name: newId('name'),
      type: 'bearer',
      ciphertext: 'v1:iv:tag:ciphertext',
      masked: 'sk-…abcd',
      hosts: ['api.example.test', 'files.example.test'],
      createdBy: null,
      ...patch,
    });

    it('a credential is kept exactly and found, listed and deleted only within its workspace', async () => {
      const a = (await newWorkspace(stores)).workspaceId;
      const b = (await newWorkspace(stores)).workspaceId;
      const first = (await stores.credentials.create(credential(a, { name: 'Search API' })))!;
      expect(first).toMatchObject({
        workspaceId: a,
        name: 'Search API',
        type: 'bearer',
        ciphertext: 'v1:iv:tag:ciphertext',
        masked: 'sk-…abcd',
        hosts: ['api.example.test', 'files.example.test'],
      });
      expect(first.createdAt).toBeInstanceOf(Date);
      const second = (await stores.credentials.create(credential(a)))!;
      expect(await stores.credentials.get(a, first.id)).toEqual(first);
      expect(await stores.credentials.get(b, first.id)).toBeNull();
      expect((await stores.credentials.list(a)).map((c) => c.id)).toEqual([first.id, second.id]);
      expect(await stores.credentials.list(b)).toEqual([]);
      expect(await stores.credentials.delete(b, first.id)).toBe(false);
      expect(await stores.credentials.delete(a, first.id)).toBe(true);
      expect(await stores.credentials.delete(a, first.id)).toBe(false);
      expect(await stores.credentials.get(a, first.id)).toBeNull();
    });

    it('a name is taken once per workspace, also by two creates at once; another workspace may use it', async () => {
      const a = (await newWorkspace(stores)).workspaceId;
      const b = (await newWorkspace(stores)).workspaceId;
      const made = await Promise.all([
        stores.credentials.create(credential(a, { name: 'Shared name' })),
        stores.credentials.create(credential(a, { name: 'Shared name' })),
      ]);
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await stores.credentials.create(credential(a, { name: 'Shared name' }))).toBeNull();
      expect(await stores.credentials.create(credential(b, { name: 'Shared name' }))).not.toBeNull();
    });
  });
}
