/**
 * The AuditLog and SignInAttempts conformance suite, written once and run on every database kind
 * (test/store/audit-and-sign-in-attempts-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '@/engine/store/audit';
import type { Stores } from '@/engine/store/app/stores';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newId, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeAuditAndSignInAttempts(label: string, open: StoresFactory) {
  describe(`AuditLog and SignInAttempts conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const entry = (patch: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
      action: 'workflow.deleted',
      actorId: 'usr_1',
      actorEmail: 'a@example.test',
      workspaceId: DEFAULT_WORKSPACE_ID,
      target: 'wf_1',
      ip: '203.0.113.7',
      data: { name: 'Old' },
      ...patch,
    });

    it("the audit log lists a workspace's entries newest first, the instance-wide ones only when asked", async () => {
      const { workspaceId } = await newWorkspace(stores);
      await stores.audit.record(entry({ workspaceId, action: 'first' }));
      await stores.audit.record(entry({ workspaceId: null, action: 'login.succeeded', data: null, target: null }));
      await stores.audit.record(entry({ workspaceId, action: 'second', data: { nested: { n: 1, list: ['x'] } } }));
      await stores.audit.record(entry({ action: 'elsewhere' }));
      const own = await stores.audit.list(workspaceId, { limit: 10, withGlobal: false });
      expect(own.map((e) => e.action)).toEqual(['second', 'first']);
      expect(own[0]).toMatchObject({
        actorId: 'usr_1',
        actorEmail: 'a@example.test',
        workspaceId,
        target: 'wf_1',
        ip: '203.0.113.7',
        data: { nested: { n: 1, list: ['x'] } },
      });
      expect(new Date(own[0].at).toISOString()).toBe(own[0].at);
      expect(BigInt(own[0].id) > BigInt(own[1].id)).toBe(true);
      const withGlobal = await stores.audit.list(workspaceId, { limit: 10, withGlobal: true });
      expect(withGlobal.map((e) => e.action)).toEqual(['second', 'login.succeeded', 'first']);
      expect(withGlobal[1]).toMatchObject({ workspaceId: null, data: null, target: null });
      expect((await stores.audit.list(workspaceId, { limit: 1, withGlobal: true })).map((e) => e.action)).toEqual([
        'second',
      ]);
    });

    it('sign-in attempts: recent ones per key, newest first, without the excepted ids, until forgotten', async () => {
      const key = `email:${newId('who')}`;
      const other = `ip:${newId('ip')}`;
      const since = new Date(Date.now() - 60_000);
      const [a] = await stores.signInAttempts.record([key]);
      await new Promise((r) => setTimeout(r, 5));
      const [b, c] = await stores.signInAttempts.record([key, other]);
      expect(new Set([a, b, c]).size).toBe(3);
      const recent = await stores.signInAttempts.recent(key, since, [], 10);
      expect(recent).toHaveLength(2);
      expect(recent[0].getTime()).toBeGreaterThanOrEqual(recent[1].getTime());
      expect(await stores.signInAttempts.recent(key, since, [b], 10)).toHaveLength(1);
      expect(await stores.signInAttempts.recent(key, since, [], 1)).toHaveLength(1);
      expect(await stores.signInAttempts.recent(key, new Date(Date.now() + 60_000), [], 10)).toEqual([]);
      await stores.signInAttempts.forget([a], []);
      expect(await stores.signInAttempts.recent(key, since, [], 10)).toHaveLength(1);
      await stores.signInAttempts.forget([], [key]);
      expect(await stores.signInAttempts.recent(key, since, [], 10)).toEqual([]);
      expect(await stores.signInAttempts.recent(other, since, [], 10)).toHaveLength(1);
      await stores.signInAttempts.deleteOlderThan(new Date(Date.now() + 60_000));
      expect(await stores.signInAttempts.recent(other, since, [], 10)).toEqual([]);
    });
  });
}
