/**
 * The CallbackSecretStore and WorkflowNames conformance suite, written once and run on every database kind
 * (test/store/callback-secrets-and-names-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '@/engine/store/app/stores';
import { newWorkflow, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeCallbackSecretsAndNames(label: string, open: StoresFactory) {
  describe(`CallbackSecretStore and WorkflowNames conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    it("a workflow's first secret is set once, also by two first uses at once; a rotation replaces it", async () => {
      const wf = await newWorkflow(stores);
      const before = (await stores.runs.getWorkflow(wf))!;
      expect(await stores.callbackSecrets.get(wf)).toBeNull();
      const firsts = await Promise.all([
        stores.callbackSecrets.setIfUnset(wf, 'sealed-a'),
        stores.callbackSecrets.setIfUnset(wf, 'sealed-b'),
      ]);
      expect(firsts.filter(Boolean)).toHaveLength(1);
      const winner = firsts[0] ? 'sealed-a' : 'sealed-b';
      expect(await stores.callbackSecrets.get(wf)).toBe(winner);
      expect(await stores.callbackSecrets.setIfUnset(wf, 'sealed-c')).toBe(false);
      expect(await stores.callbackSecrets.replace(wf, 'sealed-rotated')).toBe(true);
      expect(await stores.callbackSecrets.get(wf)).toBe('sealed-rotated');
      const after = (await stores.runs.getWorkflow(wf))!;
      expect(after.updatedAt).toBe(before.updatedAt);
      expect(after.revision).toBe(before.revision);
    });

    it('an unknown workflow has no secret to read, set or replace', async () => {
      expect(await stores.callbackSecrets.get('wf_unknown')).toBeUndefined();
      expect(await stores.callbackSecrets.setIfUnset('wf_unknown', 'sealed')).toBe(false);
      expect(await stores.callbackSecrets.replace('wf_unknown', 'sealed')).toBe(false);
    });

    it("the names in use are the workspace's own workflows' that start with the prefix", async () => {
      const { workspaceId } = await newWorkspace(stores);
      await newWorkflow(stores, 'Support bot', workspaceId);
      await newWorkflow(stores, 'Support bot (2)', workspaceId);
      await newWorkflow(stores, 'support bot lower', workspaceId);
      await newWorkflow(stores, 'Other', workspaceId);
      await newWorkflow(stores, 'Support bot (3)'); // the default workspace
      const names = await stores.workflowNames.startingWith(workspaceId, 'Support bot');
      expect(names.sort()).toEqual(['Support bot', 'Support bot (2)']);
      expect(await stores.workflowNames.startingWith(workspaceId, 'Nothing')).toEqual([]);
    });
  });
}
