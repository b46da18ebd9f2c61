/**
 * The ArtifactStore conformance suite (engine/artifacts/types.ts), written once and run on every database kind
 * (test/store/artifacts-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord, ArtifactStore } from '@/engine/artifacts/types';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newRun } from './run-store-fixtures';
import { newId, newWorkflow, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeArtifactStore(label: string, open: StoresFactory) {
  describe(`ArtifactStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let artifacts: ArtifactStore;
    let runA = '';
    let runB = '';
    let wsB = '';
    const record = (runId: string, over: Partial<ArtifactRecord> = {}): Omit<ArtifactRecord, 'createdAt'> => {
      const id = newId('art');
      return {
        id,
        runId,
        nodeId: 'tts',
        name: '语音.mp3',
        contentType: 'audio/mpeg',
        bytes: 48_213,
        sha256: 'ab'.repeat(32),
        storageKey: `artifacts/${runId}/${id}`,
        ...over,
      };
    };

    beforeAll(async () => {
      under = await open();
      artifacts = under.stores.artifacts;
      const s = under.stores;
      runA = (await s.runs.createRun(newRun(await newWorkflow(s, 'A')))).run.id;
      wsB = (await newWorkspace(s)).workspaceId;
      runB = (await s.runs.createRun(newRun(await newWorkflow(s, 'B', wsB)))).run.id;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    it('keeps a row exactly and finds it only in its run’s workspace', async () => {
      const r = record(runA);
      const saved = await artifacts.upsert(r);
      expect(saved).toMatchObject(r);
      expect(saved.createdAt).toBeInstanceOf(Date);
      expect(await artifacts.get(r.id)).toEqual(saved);
      expect(await artifacts.getInWorkspace(r.id, DEFAULT_WORKSPACE_ID)).toEqual(saved);
      expect(await artifacts.getInWorkspace(r.id, wsB)).toBeNull();
      expect(await artifacts.get('art_missing')).toBeNull();
      expect(await artifacts.workspaceOfRun(runA)).toBe(DEFAULT_WORKSPACE_ID);
      expect(await artifacts.workspaceOfRun(runB)).toBe(wsB);
      expect(await artifacts.workspaceOfRun('run_missing')).toBeNull();
    });

    it('upsert of the same id replaces the row and renews its time; existingKeys names the stored keys', async () => {
      const r = record(runA);
      const first = await artifacts.upsert(r);
      const again = await artifacts.upsert({ ...r, bytes: 7, contentType: 'image/png' });
      expect(again).toMatchObject({ id: r.id, bytes: 7, contentType: 'image/png' });
      expect(again.createdAt.getTime()).toBeGreaterThanOrEqual(first.createdAt.getTime());
      expect(await artifacts.existingKeys([r.storageKey, 'artifacts/none'])).toEqual(new Set([r.storageKey]));
      expect(await artifacts.existingKeys([])).toEqual(new Set());
    });

    it('deleteOlderThan takes the oldest first, up to the limit, and returns them', async () => {
      const before = new Date(Date.now() + 60_000);
      const all = await artifacts.deleteOlderThan(before, 1);
      expect(all).toHaveLength(1);
      expect(all[0].bytes).toBe(48_213);
      expect(await artifacts.get(all[0].id)).toBeNull();
      const rest = await artifacts.deleteOlderThan(before, 10);
      expect(rest).toHaveLength(1);
      expect(rest[0].createdAt).toBeInstanceOf(Date);
      expect(await artifacts.deleteOlderThan(new Date(0), 10)).toEqual([]);
    });
  });
}
