// Guarantees, through the artifact service on PGlite (the rows' storage on both databases is the artifact store's
// conformance suite, test/store/support/describe-artifact-store.ts): a run reads only artifacts of its own
// workspace (another workspace's id is ARTIFACT_NOT_FOUND, like one that does not exist); saving again under the same
// operation key replaces the artifact (a retried node leaves one file, not two); deleting a run deletes its
// artifacts' rows; the retention query deletes only rows older than its cutoff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { chainGraph } from '../support/harness';
import { mediaHarness, type MediaHarness } from './media-support';

describe.each(['pglite' as const])('artifact rows on %s', (kind) => {
  let h: MediaHarness;
  let runA: string;
  let runB: string;

  beforeAll(async () => {
    h = await mediaHarness({}, kind);
    await h.tdb.db.prisma.workspace.create({ data: { id: 'ws_other', name: 'Other' } });
    runA = (await h.runToEnd(await h.createWorkflow(chainGraph(1)))).id;
    const wfB = await h.store.createWorkflow({
      id: `wf_b_${kind}`,
      name: 'b',
      description: '',
      graph: chainGraph(1),
      engine: 'auto',
      workspaceId: 'ws_other',
    });
    runB = (await h.runToEnd(wfB.id)).id;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reads within the run’s workspace only', async () => {
    const a = await h.artifacts.save(runA, 'p1', {
      bytes: new Uint8Array([1]),
      contentType: 'image/png',
      name: 'a.png',
    });
    expect((await h.artifacts.read(runA, a.artifactId)).bytes).toEqual(new Uint8Array([1]));
    await expect(h.artifacts.read(runB, a.artifactId)).rejects.toMatchObject({
      code: 'ARTIFACT_NOT_FOUND',
    });
    await expect(h.artifacts.readInWorkspace(a.artifactId, 'ws_other')).rejects.toMatchObject({
      code: 'ARTIFACT_NOT_FOUND',
    });
    expect((await h.artifacts.readInWorkspace(a.artifactId, DEFAULT_WORKSPACE_ID)).record.runId).toBe(runA);
  });

  it('replaces an artifact saved again under the same key', async () => {
    const first = await h.artifacts.save(runA, 'p1', {
      bytes: new Uint8Array([1, 1]),
      contentType: 'audio/wav',
      name: 'a.wav',
      key: `${runA}:p1:audio`,
    });
    const again = await h.artifacts.save(runA, 'p1', {
      bytes: new Uint8Array([2, 2, 2]),
      contentType: 'audio/wav',
      name: 'a.wav',
      key: `${runA}:p1:audio`,
    });
    expect(again.artifactId).toBe(first.artifactId);
    expect(again.bytes).toBe(3);
    expect((await h.artifacts.read(runA, first.artifactId)).bytes).toEqual(new Uint8Array([2, 2, 2]));
    expect(await h.tdb.db.prisma.artifact.count({ where: { runId: runA, contentType: 'audio/wav' } })).toBe(1);
  });

  it('deletes rows older than the cutoff only, and rows go with their run', async () => {
    const b = await h.artifacts.save(runB, 'p1', { bytes: new Uint8Array([3]), contentType: 'image/png', name: 'b' });
    expect(await h.artifacts.store.deleteOlderThan(new Date(Date.now() - 60_000), 100)).toEqual([]);
    const gone = await h.artifacts.store.deleteOlderThan(new Date(Date.now() + 60_000), 100);
    expect(gone.map((r) => r.id)).toContain(b.artifactId);
    expect(gone.find((r) => r.id === b.artifactId)).toMatchObject({ runId: runB, bytes: 1, contentType: 'image/png' });
    const c = await h.artifacts.save(runB, 'p1', { bytes: new Uint8Array([4]), contentType: 'image/png', name: 'c' });
    await h.tdb.db.prisma.run.delete({ where: { id: runB } });
    expect(await h.artifacts.store.get(c.artifactId)).toBeNull();
  });
});
