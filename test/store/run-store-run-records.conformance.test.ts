// Guarantees: every RunStore (PGlite and PostgreSQL, commits via the driver or via Prisma) keeps run records alike:
// idempotent createRun (also under concurrency), compare-and-set updateRun, owner-scoped heartbeats, stale-run
// detection, and deleting a workflow deletes its runs, snapshots and events. Commits and JSON fidelity:
// run-store-commits-are-atomic-and-exact.conformance.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { NewRun, RunStore } from '@/engine/store/types';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';
import {
  conformanceCases,
  conformanceStore,
  createRun,
  createWorkflow,
  ev,
  GRAPH,
  newRun,
  nodeRec,
  sleep,
} from './support/run-store-fixtures';

const kinds = await storeKinds();

describe.each(conformanceCases(kinds))(
  'RunStore conformance on $kind (commit via $commitPath): run records',
  ({ kind, commitPath }) => {
    let tdb: TestDb;
    let store: PrismaStore;
    let runs: RunStore;

    beforeAll(async () => {
      tdb = await openTestDb(kind);
      store = conformanceStore(tdb, commitPath);
      runs = store;
    });
    afterAll(async () => {
      await tdb?.dispose();
    });

    const workflow = () => createWorkflow(store);
    const run = (patch: Partial<NewRun> = {}) => createRun(store, patch);

    // ── createRun / getRun / listRuns ──────────────────────────────────────────────
    it('createRun stores every field and getRun reads it back; unknown ids give null', async () => {
      const wf = await workflow();
      const input = newRun(wf, { inputs: { q: 'x', n: 3 }, idempotencyKey: 'k-1' });
      const { run: r, created } = await runs.createRun(input);
      expect(created).toBe(true);
      expect(r).toMatchObject({
        id: input.id,
        workflowId: wf,
        versionId: null,
        engine: 'dag',
        status: 'queued',
        inputs: { q: 'x', n: 3 },
        outputs: null,
        error: null,
        graph: GRAPH,
        ownerId: null,
        heartbeatAt: null,
        idempotencyKey: 'k-1',
        startedAt: null,
        finishedAt: null,
      });
      expect(new Date(r.createdAt).toISOString()).toBe(r.createdAt);
      expect(await runs.getRun(input.id)).toEqual(r);
      expect(await runs.getRun('run_does_not_exist')).toBeNull();
    });

    it(
      'createRun is idempotent per (workflowId, idempotencyKey): ' +
        'the second call returns the existing run, created:false',
      async () => {
        const wf = await workflow();
        const first = await runs.createRun(newRun(wf, { idempotencyKey: 'same-key', inputs: { v: 1 } }));
        const second = await runs.createRun(newRun(wf, { idempotencyKey: 'same-key', inputs: { v: 2 } }));
        expect(first.created).toBe(true);
        expect(second.created).toBe(false);
        expect(second.run.id).toBe(first.run.id);
        expect(second.run.inputs).toEqual({ v: 1 });
        expect((await runs.listRuns(wf)).map((r) => r.id)).toEqual([first.run.id]);

        // The key is scoped to the workflow; runs without a key never collide.
        const other = await workflow();
        expect((await runs.createRun(newRun(other, { idempotencyKey: 'same-key' }))).created).toBe(true);
        expect((await runs.createRun(newRun(wf))).created).toBe(true);
        expect((await runs.createRun(newRun(wf))).created).toBe(true);
        expect(await runs.listRuns(wf)).toHaveLength(3);
      },
    );

    it('concurrent createRun calls with one idempotency key create exactly one run', async () => {
      const wf = await workflow();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => runs.createRun(newRun(wf, { idempotencyKey: 'race' }))),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.run.id)).size).toBe(1);
      expect(await runs.listRuns(wf)).toHaveLength(1);
    });

    it('createRun with an existing id (no idempotency key) fails instead of overwriting', async () => {
      const r = await run({ inputs: { original: true } });
      await expect(runs.createRun(newRun(r.workflowId, { id: r.id, inputs: { original: false } }))).rejects.toThrow();
      expect((await runs.getRun(r.id))?.inputs).toEqual({ original: true });
    });

    it("listRuns returns only that workflow's runs, newest first, honouring limit", async () => {
      const wf = await workflow();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push((await run({ workflowId: wf })).id);
        await sleep(5); // distinct created_at (millisecond precision)
      }
      await run(); // another workflow
      expect((await runs.listRuns(wf)).map((r) => r.id)).toEqual([...ids].reverse());
      expect((await runs.listRuns(wf, { limit: 2 })).map((r) => r.id)).toEqual([ids[3], ids[2]]);
      expect(await runs.listRuns('wf_unknown')).toEqual([]);
    });

    // ── updateRun ──────────────────────────────────────────────────────────────────
    it('updateRun is compare-and-set on status: a mismatched expect returns false and changes nothing', async () => {
      const r = await run();
      const hb = '2024-05-01T10:00:00.500Z';
      expect(
        await runs.updateRun(r.id, { status: 'running', ownerId: 'owner-a', heartbeatAt: hb, startedAt: hb }, [
          'queued',
        ]),
      ).toBe(true);
      const before = (await runs.getRun(r.id))!;
      expect(before).toMatchObject({ status: 'running', ownerId: 'owner-a', heartbeatAt: hb, startedAt: hb });

      expect(
        await runs.updateRun(
          r.id,
          { status: 'cancelled', ownerId: 'owner-b', error: { code: 'X', message: 'no' }, outputs: { a: 1 } },
          ['queued', 'failed'],
        ),
      ).toBe(false);
      expect(await runs.getRun(r.id)).toEqual(before);

      // Without expect the patch applies unconditionally; null clears JSON fields.
      expect(
        await runs.updateRun(r.id, { status: 'failed', error: { code: 'BOOM', message: 'x', details: { n: [1, 2] } } }),
      ).toBe(true);
      expect((await runs.getRun(r.id))!.error).toEqual({ code: 'BOOM', message: 'x', details: { n: [1, 2] } });
      expect(
        await runs.updateRun(r.id, { status: 'running', error: null, outputs: null, finishedAt: null }, ['failed']),
      ).toBe(true);
      expect(await runs.getRun(r.id)).toMatchObject({
        status: 'running',
        error: null,
        outputs: null,
        finishedAt: null,
        ownerId: 'owner-a',
      });

      expect(await runs.updateRun('run_does_not_exist', { status: 'failed' })).toBe(false);
      expect(await runs.updateRun('run_does_not_exist', { status: 'failed' }, ['running'])).toBe(false);
    });

    it('concurrent compare-and-set updates: exactly one wins', async () => {
      const r = await run();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          runs.updateRun(r.id, { status: 'running', ownerId: `owner-${i}` }, ['queued']),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await runs.getRun(r.id))!.ownerId).toBe(`owner-${winner}`);
    });

    // ── heartbeats / stale runs ────────────────────────────────────────────────────
    it('heartbeat only touches the listed runs of that owner', async () => {
      const old = '2020-01-01T00:00:00.000Z';
      const mine = await run();
      const mineUnlisted = await run();
      const theirs = await run();
      await runs.updateRun(mine.id, { status: 'running', ownerId: 'owner-a', heartbeatAt: old });
      await runs.updateRun(mineUnlisted.id, { status: 'running', ownerId: 'owner-a', heartbeatAt: old });
      await runs.updateRun(theirs.id, { status: 'running', ownerId: 'owner-b', heartbeatAt: old });

      const before = Date.now();
      await runs.heartbeat('owner-a', [mine.id, theirs.id]);
      await runs.heartbeat('owner-a', []);
      const hb = (await runs.getRun(mine.id))!.heartbeatAt!;
      expect(new Date(hb).getTime()).toBeGreaterThanOrEqual(before - 60_000);
      expect(new Date(hb).getTime()).toBeGreaterThan(new Date(old).getTime());
      expect((await runs.getRun(mineUnlisted.id))!.heartbeatAt).toBe(old);
      expect((await runs.getRun(theirs.id))!.heartbeatAt).toBe(old);
      expect((await runs.getRun(theirs.id))!.ownerId).toBe('owner-b');
    });

    it(
      'findStaleRuns returns queued/running runs whose heartbeat (or creation, if none) ' + 'is older than the cut-off',
      async () => {
        const wf = await workflow();
        const cut = new Date('2024-06-01T00:00:00.000Z');
        const staleRunning = await run({ workflowId: wf });
        await runs.updateRun(staleRunning.id, {
          status: 'running',
          ownerId: 'dead',
          heartbeatAt: '2024-05-31T23:59:59.000Z',
        });
        const freshRunning = await run({ workflowId: wf });
        await runs.updateRun(freshRunning.id, {
          status: 'running',
          ownerId: 'alive',
          heartbeatAt: '2024-06-01T00:00:01.000Z',
        });
        const finishedOld = await run({ workflowId: wf });
        await runs.updateRun(finishedOld.id, {
          status: 'succeeded',
          ownerId: 'dead',
          heartbeatAt: '2024-01-01T00:00:00.000Z',
        });
        const failedOld = await run({ workflowId: wf });
        await runs.updateRun(failedOld.id, {
          status: 'failed',
          ownerId: 'dead',
          heartbeatAt: '2024-01-01T00:00:00.000Z',
        });
        const queuedNoHeartbeat = await run({ workflowId: wf }); // created now, never heart-beaten

        const ids = (d: Date) =>
          runs.findStaleRuns(d).then((rs) =>
            rs
              .filter((r) => r.workflowId === wf)
              .map((r) => r.id)
              .sort(),
          );
        expect(await ids(cut)).toEqual([staleRunning.id]);
        // A cut-off in the future: every active run is stale, including ones that never heart-beat; finished runs
        // never are.
        expect(await ids(new Date(Date.now() + 60_000))).toEqual(
          [staleRunning.id, freshRunning.id, queuedNoHeartbeat.id].sort(),
        );
        const found = (await runs.findStaleRuns(cut)).find((r) => r.id === staleRunning.id)!;
        expect(found).toMatchObject({ status: 'running', ownerId: 'dead' });
      },
    );

    // ── cascades ───────────────────────────────────────────────────────────────────
    it('deleting a workflow deletes its runs, node snapshots and events (and nothing else)', async () => {
      const wf = await workflow();
      const r1 = await run({ workflowId: wf });
      const r2 = await run({ workflowId: wf });
      const keep = await run();
      for (const r of [r1, r2, keep]) {
        await runs.commit(r.id, { nodes: [nodeRec(r.id, 'n1')], events: [ev(r.id, 1), ev(r.id, 2)] });
      }
      expect(await store.deleteWorkflow(wf)).toBe(true);
      for (const r of [r1, r2]) {
        expect(await runs.getRun(r.id)).toBeNull();
        expect(await runs.getNodeRuns(r.id)).toEqual([]);
        expect(await runs.getEvents(r.id)).toEqual([]);
        expect(await runs.maxSeq(r.id)).toBe(0);
      }
      expect(await runs.listRuns(wf)).toEqual([]);
      expect(await runs.getRun(keep.id)).not.toBeNull();
      expect(await runs.getNodeRuns(keep.id)).toHaveLength(1);
      expect(await runs.maxSeq(keep.id)).toBe(2);
      expect(await store.deleteWorkflow(wf)).toBe(false);
    });
  },
);
