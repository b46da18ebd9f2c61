// Guarantees (the crash harness: one kill -9 per engine covers every kind of durable progress at once): after the
// process running a run is SIGKILLed, a new process finds the run, marks it `interrupted` (error INTERRUPTED, a
// run.interrupted event, the node that was executing failed with INTERRUPTED; recovery is idempotent) and resumes it
// to success in the same trace (contiguous seq, the events before the crash unchanged) without executing again
// anything that had succeeded:
// - plain nodes: p1 and p2 ran once in all, their stored results are reused unchanged; p3 (executing at the kill) and
//   p4 run after the restart;
// - a parallel loop (on LangGraph: the DAG engine runs no cycles): the items in its checkpoint are not sent again, the
//   ones in flight and the unstarted ones are, and the results are whole and in input order;
// - an Agent node: it resumes at the round it was in: rounds 1–2's tool calls reached their target exactly once (with
//   the run's idempotency keys) and the model is asked round 3 with the conversation it had.
// On PostgreSQL (several processes may share it) the run is taken over only once its owner's heartbeat is stale:
// while the owner is alive, another process's recovery leaves it alone. DAG runs on PGlite (single process: every
// running run is an orphan) and LangGraph on PostgreSQL, so each engine and each recovery path is killed once. The
// killed queue worker is test/queue/worker-killed-run-finishes-elsewhere.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { openDatabase, type Database } from '@/engine/store/prisma/database';
import { post, startCountingTarget, startFakeOpenAi, type CountingTarget } from '../agent/support/durable-agent';
import { dropSchema, storeKinds, TEST_DATABASE_URL, uniqueSchema, type TestDb } from '../support/databases';
import type { FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, probeCalls, resetProbes, type Harness } from '../support/harness';
import { spawnTsx } from '../support/spawn-tsx';
import { until } from '../support/until';
import { expectedResults, range, startGateServer, type GateServer } from './loop-concurrency-support';

const kinds = await storeKinds();
const cases = [
  ['pglite', 'dag'],
  [kinds.includes('postgres') ? 'postgres' : 'pglite', 'langgraph'],
] as const;

function counts(file: string): Record<string, number> {
  if (!existsSync(file)) return {};
  const out: Record<string, number> = {};
  for (const id of readFileSync(file, 'utf8').split('\n').filter(Boolean)) out[id] = (out[id] ?? 0) + 1;
  return out;
}

const openAt = (kind: 'pglite' | 'postgres', location: string): Promise<Database> =>
  openDatabase(kind === 'pglite' ? { dataDir: location } : { databaseUrl: TEST_DATABASE_URL, schema: location });

let gate: GateServer;
let fake: FakeOpenAi;
let target: CountingTarget;
beforeAll(async () => {
  [gate, fake, target] = await Promise.all([startGateServer(), startFakeOpenAi(), startCountingTarget()]);
});
afterAll(async () => {
  await Promise.all([gate?.close(), fake?.close(), target?.close()]);
});

describe.each(cases)('kill -9 of the process running a run, on %s with the %s engine', (kind, engine) => {
  const withLoop = engine === 'langgraph';
  it(
    'the restarted process resumes it without re-running a node, loop item or agent round that succeeded',
    {
      timeout: 180_000,
    },
    async () => {
      resetProbes();
      gate.reset();
      target.hits.length = 0;
      fake.requests.length = 0;
      fake.script(
        { toolCalls: [post(target, 'r1', 'one')] },
        { toolCalls: [post(target, 'r2', 'two')] },
        { hang: true }, // round 3: the model never answers; the process is killed meanwhile
      );
      const scratch = mkdtempSync(path.join(tmpdir(), 'paiflow-crash-'));
      const counterFile = path.join(scratch, 'probe-calls.txt');
      const location = kind === 'pglite' ? path.join(scratch, 'db') : uniqueSchema('crash');
      const proc = spawnTsx('test/support/crash-child.ts', [kind, location], {
        PROBE_COUNTER_FILE: counterFile,
        FAKE_BASE_URL: fake.baseURL,
        TARGET_URL: target.url,
        GATE_URL: gate.base,
        CRASH_ENGINE: engine,
      });
      const stored = () =>
        proc.lines
          .filter((l) => l.startsWith('STATE '))
          .map((l) => JSON.parse(l.slice(6)) as { p2?: string; p3?: string; finished: number[] })
          .at(-1);
      let db: Database | undefined;
      let h: Harness | undefined;
      try {
        const childPid = Number(await proc.line('PID'));
        const runId = await proc.line('RUN');

        // The loop: items 0–3 finish, each checkpointed before the next is released; 4–6 are then in flight.
        for (const item of withLoop ? [0, 1, 2, 3] : []) {
          await until(() => gate.held.includes(item), `item ${item} held`, 60_000);
          gate.release(item);
          await until(() => stored()?.finished.includes(item), `item ${item} stored as finished`, 60_000);
        }
        if (withLoop) {
          await until(() => gate.held.length === 3, 'items 4, 5 and 6 in flight');
          expect([...gate.held].sort()).toEqual([4, 5, 6]);
        }
        // The chain: p2's success and p3's start are stored.
        await until(() => stored()?.p2 === 'succeeded' && stored()?.p3 === 'running', 'p2 stored, p3 running', 60_000);
        // The agent: round 3's request is sent only after round 2's checkpoint is stored (runAgent awaits the save).
        await until(() => fake.requests.length >= 3, 'the round-3 model request', 60_000);
        const roundThree = fake.requests[2].messages;
        expect(target.hits.map((x) => x.path)).toEqual(['/r1', '/r2']);
        expect(counts(counterFile)).toEqual({ p1: 1, p2: 1, p3: 1 });

        if (kind === 'postgres') {
          // While the owner is alive and heart-beating, another process's recovery must leave the run alone.
          const probeDb = await openAt(kind, location);
          const other = await createHarness(kind, { tdb: { db: probeDb } as TestDb, staleMs: 5_000 });
          try {
            expect(await other.runs.recover()).toEqual([]);
            expect((await other.store.getRun(runId))!.status).toBe('running');
          } finally {
            await other.close();
            await probeDb.close();
          }
        }

        process.kill(childPid, 'SIGKILL');
        await proc.exit;

        // "Restart": open the same database in this process and recover like lib/server/app.ts does.
        db = await openAt(kind, location);
        const tdb = { db, kind, location, reopen: async () => db!, dispose: async () => {} } as TestDb;
        h = await createHarness(kind, {
          tdb,
          staleMs: kind === 'postgres' ? 1_000 : undefined,
          llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
          fetch: createGuardedFetch({ allowlist: [gate.host, new URL(target.url).host] }),
        });
        expect((await h.store.getRun(runId))!.status).toBe('running');
        const recovered =
          kind === 'pglite'
            ? await h.runs.recover(new Date(Date.now() + 1000)) // single-process store: every running run is an orphan
            : await until(
                async () => {
                  const r = await h!.runs.recover(); // stale once the dead owner's last heartbeat is older than staleMs
                  return r.length ? r : undefined;
                },
                'recover() to find the stale run',
                30_000,
                100,
              );
        expect(recovered).toEqual([runId]);

        const interrupted = (await h.store.getRun(runId))!;
        expect(interrupted.status).toBe('interrupted');
        expect(interrupted.error?.code).toBe('INTERRUPTED');
        const evBefore = await h.events(runId);
        expect(evBefore.at(-1)?.type).toBe('run.interrupted');
        const snap = Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
        expect(snap.p1.status).toBe('succeeded');
        expect(snap.p2.status).toBe('succeeded');
        expect(snap.p3).toMatchObject({ status: 'failed', attempt: 1, error: { code: 'INTERRUPTED' } });
        expect(snap.p4).toBeUndefined();
        expect(await h.runs.recover(new Date(Date.now() + 1000))).toEqual([]); // recovery is idempotent

        gate.hold = false;
        fake.script({ text: 'both reports are posted' });
        expect((await h.runs.resume(runId)).id).toBe(runId);
        await h.runs.waitFor(runId);
        const done = (await h.store.getRun(runId))!;
        expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
        expect(done.engine).toBe(engine);
        expect(done.outputs).toEqual({
          last: { value: 'p4', calls: 1 },
          ...(withLoop ? { results: expectedResults(9) } : {}),
          text: 'both reports are posted',
        });

        // Plain nodes: p1 and p2 ran once in all (in the killed process); p3 and p4 once after the restart.
        expect(counts(counterFile)).toEqual({ p1: 1, p2: 1, p3: 1 });
        expect(Object.fromEntries(probeCalls)).toEqual({ p3: 1, p4: 1 });
        const after = Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
        expect(after.p1).toEqual(snap.p1);
        expect(after.p2).toEqual(snap.p2);
        expect(after.p3).toMatchObject({ status: 'succeeded', attempt: 2 });
        // The loop: finished items were not sent again; the three in flight were.
        if (withLoop) {
          expect(range(9).map((i) => gate.completed.get(i))).toEqual(range(9).map(() => 1));
          expect(range(9).map((i) => gate.arrivals.get(i))).toEqual([1, 1, 1, 1, 2, 2, 2, 1, 1]);
        }
        // The agent: asked round 3 again with the same conversation; rounds 1–2's calls reached the target once.
        expect(fake.requests).toHaveLength(4);
        expect(fake.requests[3].messages).toEqual(roundThree);
        expect(target.hits.map((x) => [x.path, x.key])).toEqual([
          ['/r1', `${runId}:a1:1:0`],
          ['/r2', `${runId}:a1:2:0`],
        ]);

        const events: TraceEvent[] = await h.events(runId);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events.slice(0, evBefore.length)).toEqual(evBefore);
        expect(events.filter((e) => e.type === 'run.started').map((e) => e.data.resumed)).toEqual([false, true]);
        expect(events.filter((e) => e.type === 'run.interrupted')).toHaveLength(1);
        const startedAfter = events
          .slice(evBefore.length)
          .filter((e) => e.type === 'node.started')
          .map((e) => e.nodeId);
        expect(startedAfter.filter((id) => ['start', 'p1', 'p2', 'p3', 'p4', 'a1', 'end'].includes(id!))).toEqual(
          expect.arrayContaining(['p3', 'p4', 'a1', 'end']),
        );
        expect(startedAfter).not.toContain('start');
        expect(startedAfter).not.toContain('p1');
        expect(startedAfter).not.toContain('p2');
        expect(events.at(-1)?.type).toBe('run.succeeded');
      } finally {
        proc.killGroup();
        await h?.close().catch(() => {});
        await db?.close().catch(() => {});
        if (kind === 'postgres') await dropSchema(location);
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});
