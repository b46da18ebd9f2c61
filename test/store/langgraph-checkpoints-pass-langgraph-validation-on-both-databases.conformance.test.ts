// Guarantees: PaiFlow's database is a LangGraph checkpointer — StoreCheckpointSaver over the CheckpointStore passes
// LangGraph's own conformance suite (@langchain/langgraph-checkpoint-validation: put, putWrites, getTuple, list,
// deleteThread, pending-send migration, delta channel history) on the embedded database and on PostgreSQL; and what
// that suite leaves out: a task's regular write is kept once while a special one (an error, an interrupt, a resume
// value) is replaced, and a value stored for a channel version is never overwritten by another branch.
import { emptyCheckpoint, ERROR, uuid6 } from '@langchain/langgraph-checkpoint';
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreCheckpointSaver } from '@/engine/runtime/checkpoint-saver';
import { storesOn, databaseBehind } from '@/engine/store/app/prisma-stores';
import type { Stores } from '@/engine/store/app/stores';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';

// The suite's specs use the test functions as globals, which this repo does not turn on.
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });

for (const kind of await storeKinds()) {
  let tdb: TestDb;
  let stores: Stores;
  validate({
    checkpointerName: `StoreCheckpointSaver (${kind})`,
    beforeAllTimeout: 60_000,
    async beforeAll() {
      tdb = await openTestDb(kind);
      stores = storesOn(tdb.db);
    },
    afterAll: () => tdb?.dispose(),
    // One checkpointer lives at a time; each starts on empty tables, as the suite requires.
    async createCheckpointer() {
      await databaseBehind(stores).sql.exec(
        'DELETE FROM graph_checkpoint_writes; DELETE FROM graph_checkpoint_blobs; DELETE FROM graph_checkpoints;',
      );
      return new StoreCheckpointSaver(stores.checkpoints);
    },
  });
}

for (const kind of await storeKinds()) {
  describe(`the saver's writes and versions (${kind})`, () => {
    let tdb: TestDb;
    let saver: StoreCheckpointSaver;
    beforeAll(async () => {
      tdb = await openTestDb(kind);
      saver = new StoreCheckpointSaver(storesOn(tdb.db).checkpoints);
    }, 60_000);
    afterAll(() => tdb?.dispose());

    it('keeps a regular write once and replaces a special one', async () => {
      const config = await saver.put(
        { configurable: { thread_id: 'writes', checkpoint_ns: '' } },
        { ...emptyCheckpoint(), id: uuid6(0) },
        { source: 'loop', step: 0, parents: {} },
        {},
      );
      await saver.putWrites(
        config,
        [
          ['answer', 'first'],
          [ERROR, 'first failure'],
        ],
        'task-1',
      );
      await saver.putWrites(
        config,
        [
          ['answer', 'second'],
          [ERROR, 'second failure'],
        ],
        'task-1',
      );
      const tuple = await saver.getTuple(config);
      expect(tuple?.pendingWrites).toEqual([
        ['task-1', ERROR, 'second failure'],
        ['task-1', 'answer', 'first'],
      ]);
    });

    it('never reuses a channel version, so a fork reads its own values', async () => {
      // Two branches continuing from the same version get different next versions, each above the one before.
      const v3 = saver.getNextVersion(saver.getNextVersion(saver.getNextVersion(undefined)));
      const branches = Array.from({ length: 50 }, () => saver.getNextVersion(v3));
      expect(new Set(branches).size).toBe(50);
      for (const v of branches) expect(v > v3 && Math.floor(v) === 4).toBe(true);
    });
  });
}
