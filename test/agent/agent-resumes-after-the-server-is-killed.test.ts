// Guarantees: when the process running an Agent node is SIGKILLed in the middle of round 3, a new process recovers the
// run as interrupted and resumes it at round 3: the tool calls of rounds 1–2 reached their target exactly once, and
// the model is asked round 3 with the conversation it had. On both engines and both stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { storeKinds, TEST_DATABASE_URL, uniqueSchema, type TestDb } from '../support/databases';
import type { Harness } from '../support/harness';
import { spawnTsx } from '../support/spawn-tsx';
import { until } from '../support/until';
import { durableHarness, post, startCountingTarget, startFakeOpenAi } from './support/durable-agent';

const kinds = await storeKinds();
const combos = kinds.flatMap((k) => (['dag', 'langgraph'] as const).map((engine) => [k, engine] as const));

describe.each(combos)('an agent killed mid-round on %s with the %s engine', (kind, engine) => {
  it('resumes at the round it was in, without repeating the earlier rounds', { timeout: 180_000 }, async () => {
    const fake = await startFakeOpenAi();
    const target = await startCountingTarget();
    const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-agent-crash-'));
    const location = kind === 'pglite' ? path.join(scratch, 'db') : uniqueSchema('agentcrash');
    fake.script(
      { toolCalls: [post(target, 'r1', 'one')] },
      { toolCalls: [post(target, 'r2', 'two')] },
      { hang: true }, // round 3: the model never answers; the process is killed meanwhile
    );
    const proc = spawnTsx('test/support/agent-crash-child.ts', [kind, location], {
      FAKE_BASE_URL: fake.baseURL,
      TARGET_URL: target.url,
      CRASH_ENGINE: engine,
    });
    let db: Database | undefined;
    let h: Harness | undefined;
    try {
      const childPid = Number(await proc.line('PID'));
      const runId = await proc.line('RUN');
      // Round 3's request is sent only after round 2's checkpoint is stored (runAgent awaits the save).
      await until(() => fake.requests.length >= 3, 'the round-3 model request', 90_000);
      const roundThree = fake.requests[2].messages;
      expect(target.hits.map((x) => x.path)).toEqual(['/r1', '/r2']);
      process.kill(childPid, 'SIGKILL');
      await proc.exit;

      db = await openDatabase(
        kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location },
      );
      const tdb = { db, kind, location, reopen: async () => db!, dispose: async () => {} } as TestDb;
      h = await durableHarness(kind, fake, target, tdb);
      const recovered =
        kind === 'pglite'
          ? await h.runs.recover(new Date(Date.now() + 1000))
          : await until(
              async () => {
                const r = await h!.runs.recover(new Date(Date.now() - 1000));
                return r.length ? r : undefined;
              },
              'recover() to find the stale run',
              30_000,
              100,
            );
      expect(recovered).toEqual([runId]);

      fake.script({ text: 'both reports are posted' });
      await h.runs.resume(runId);
      await h.runs.waitFor(runId);
      const done = (await h.store.getRun(runId))!;
      expect(done.status).toBe('succeeded');
      expect(done.outputs).toEqual({ text: 'both reports are posted' });
      expect(fake.requests).toHaveLength(4);
      expect(fake.requests[3].messages).toEqual(roundThree);
      expect(target.hits.map((x) => [x.path, x.key])).toEqual([
        ['/r1', `${runId}:a1:1:0`],
        ['/r2', `${runId}:a1:2:0`],
      ]);
    } finally {
      proc.killGroup();
      await h?.close().catch(() => {});
      await db?.close().catch(() => {});
      await fake.close();
      await target.close();
      if (kind === 'postgres') {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${location}" CASCADE`).catch(() => {});
        await c.end();
      }
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
