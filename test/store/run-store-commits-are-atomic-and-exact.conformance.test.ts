// Guarantees: on every RunStore (PGlite and PostgreSQL, commits via the driver or via Prisma) a commit is atomic
// (nodes, events and run patch together, or nothing of them), node snapshots are upserted per (run, node), events
// read back in seq order and page by cursor, and JSON round-trips exactly — jsonb's U+0000 and lone surrogates become
// U+FFFD instead of failing the commit; a transition (status compare-and-set plus what it derives) is one
// transaction. Run records: run-store-run-records.conformance.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/engine/events/types';
import type { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { NewRun, RunStore } from '@/engine/store/types';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';
import { conformanceCases, conformanceStore, createRun, ev, nodeRec } from './support/run-store-fixtures';

const kinds = await storeKinds();

describe.each(conformanceCases(kinds))(
  'RunStore conformance on $kind (commit via $commitPath): commits',
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

    const run = (patch: Partial<NewRun> = {}) => createRun(store, patch);

    // ── commit / snapshots / events ────────────────────────────────────────────────
    it('commit persists nodes and events together and applies the run patch', async () => {
      const r = await run();
      await runs.commit(r.id, {
        nodes: [nodeRec(r.id, 'n1'), nodeRec(r.id, 'n2', { status: 'succeeded', output: { ok: true } })],
        events: [ev(r.id, 1), ev(r.id, 2)],
        run: { status: 'running', ownerId: 'o' },
      });
      expect((await runs.getNodeRuns(r.id)).map((n) => n.nodeId).sort()).toEqual(['n1', 'n2']);
      expect((await runs.getEvents(r.id)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await runs.getRun(r.id)).toMatchObject({ status: 'running', ownerId: 'o' });

      // A run patch alone, and an empty batch, are accepted.
      await runs.commit(r.id, { run: { status: 'succeeded', outputs: { done: 1 } } });
      await runs.commit(r.id, {});
      expect(await runs.getRun(r.id)).toMatchObject({ status: 'succeeded', outputs: { done: 1 } });
    });

    it('a commit with a duplicate event seq fails and persists none of its nodes, events or run patch', async () => {
      const r = await run();
      await runs.commit(r.id, {
        nodes: [nodeRec(r.id, 'n1', { status: 'running', attempt: 1 })],
        events: [ev(r.id, 1), ev(r.id, 2)],
      });

      // Clashes with a stored event.
      await expect(
        runs.commit(r.id, {
          nodes: [nodeRec(r.id, 'n1', { status: 'succeeded', attempt: 1, output: { x: 1 } }), nodeRec(r.id, 'n2')],
          events: [ev(r.id, 3), ev(r.id, 2, { type: 'node.succeeded' })],
          run: { status: 'succeeded' },
        }),
      ).rejects.toThrow();
      // Duplicates inside one batch.
      await expect(
        runs.commit(r.id, {
          nodes: [nodeRec(r.id, 'n3')],
          events: [ev(r.id, 3), ev(r.id, 3)],
          run: { status: 'failed' },
        }),
      ).rejects.toThrow();

      const nodes = await runs.getNodeRuns(r.id);
      expect(nodes.map((n) => [n.nodeId, n.status, n.output])).toEqual([['n1', 'running', null]]);
      const events = await runs.getEvents(r.id);
      expect(events.map((e) => [e.seq, e.type])).toEqual([
        [1, 'node.progress'],
        [2, 'node.progress'],
      ]);
      expect(await runs.maxSeq(r.id)).toBe(2);
      expect((await runs.getRun(r.id))!.status).toBe('queued');

      // The store is still usable afterwards.
      await runs.commit(r.id, { events: [ev(r.id, 3)] });
      expect(await runs.maxSeq(r.id)).toBe(3);
    });

    it('node snapshots are upserted per (run, node): the latest state wins', async () => {
      const r = await run();
      await runs.commit(r.id, { nodes: [nodeRec(r.id, 'n1', { status: 'running', attempt: 1 })] });
      await runs.commit(r.id, {
        nodes: [
          nodeRec(r.id, 'n1', {
            status: 'failed',
            attempt: 1,
            error: { code: 'E', message: 'first' },
            finishedAt: '2024-05-01T10:00:01.000Z',
            durationMs: 877,
          }),
        ],
      });
      await runs.commit(r.id, { nodes: [nodeRec(r.id, 'n1', { status: 'running', attempt: 2, error: null })] });
      await runs.commit(r.id, {
        nodes: [
          nodeRec(r.id, 'n1', {
            status: 'succeeded',
            attempt: 2,
            output: { text: 'fine' },
            error: null,
            usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } as never,
            finishedAt: '2024-05-01T10:00:02.250Z',
            durationMs: 2127,
          }),
        ],
      });
      expect(await runs.getNodeRuns(r.id)).toEqual([
        {
          runId: r.id,
          nodeId: 'n1',
          type: 'probe',
          status: 'succeeded',
          attempt: 2,
          input: { a: 1 },
          output: { text: 'fine' },
          error: null,
          usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
          startedAt: '2024-05-01T10:00:00.123Z',
          finishedAt: '2024-05-01T10:00:02.250Z',
          durationMs: 2127,
        },
      ]);
      // Snapshots are per run.
      const other = await run();
      expect(await runs.getNodeRuns(other.id)).toEqual([]);
    });

    it('getEvents returns events in seq order after afterSeq, paged by limit; maxSeq is the highest seq', async () => {
      const r = await run();
      expect(await runs.maxSeq(r.id)).toBe(0);
      expect(await runs.getEvents(r.id)).toEqual([]);
      // Inserted out of order across commits: reads are still by seq.
      await runs.commit(r.id, { events: [7, 8, 9, 10].map((s) => ev(r.id, s)) });
      await runs.commit(r.id, { events: [4, 5, 6, 1, 2, 3].map((s) => ev(r.id, s)) });
      expect(await runs.maxSeq(r.id)).toBe(10);
      expect((await runs.getEvents(r.id)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await runs.getEvents(r.id, 3)).map((e) => e.seq)).toEqual([4, 5, 6, 7, 8, 9, 10]);
      expect((await runs.getEvents(r.id, 3, 4)).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
      expect(await runs.getEvents(r.id, 10)).toEqual([]);

      const paged: number[] = [];
      for (let after = 0; ;) {
        const page = await runs.getEvents(r.id, after, 3);
        if (!page.length) break;
        paged.push(...page.map((e) => e.seq));
        after = page.at(-1)!.seq;
      }
      expect(paged).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

      // Events of another run are separate.
      const other = await run();
      await runs.commit(other.id, { events: [ev(other.id, 1)] });
      expect(await runs.maxSeq(other.id)).toBe(1);
      expect(await runs.maxSeq(r.id)).toBe(10);
      expect(await runs.maxSeq('run_does_not_exist')).toBe(0);
    });

    it('events round-trip every field; optional nodeId/parentSpanId are omitted when absent', async () => {
      const r = await run();
      const withNode = ev(r.id, 1, {
        type: 'node.token',
        nodeId: 'llm1',
        spanId: 'abc',
        parentSpanId: 'root',
        data: { delta: 'hé' },
      });
      const runLevel: TraceEvent = {
        seq: 2,
        runId: r.id,
        ts: '2024-05-01T23:59:59.999Z',
        type: 'run.succeeded',
        spanId: 'root',
        data: { outputs: { a: [1, { b: null }] } },
      };
      await runs.commit(r.id, { events: [withNode, runLevel] });
      const [a, b] = await runs.getEvents(r.id);
      expect(a).toEqual(withNode);
      expect(b).toEqual(runLevel);
      expect('nodeId' in b).toBe(false);
      expect('parentSpanId' in b).toBe(false);
    });

    // ── JSON fidelity ──────────────────────────────────────────────────────────────
    it(
      'JSON round-trips exactly: nested structures, unicode and ~1 MB strings ' + 'in runs, snapshots and events',
      async () => {
        const big = 'αβγ-😀-'.repeat(1) + 'x'.repeat(1_000_000) + '-end';
        const doc = {
          nested: {
            a: [1, 2.5, -3, 0, 1e21, { b: [null, true, false, 'deep', { c: [[[]]], d: {} }] }],
            'key with spaces & "quotes"': 'v',
          },
          unicode: 'Grüße, 你好, مرحبا, שלום, नमस्ते, 🤖👩‍💻🇯🇵, e\u0301, tab\tnewline\nbackslash\\ quote"',
          emptyString: '',
          emptyArray: [],
          numbers: { max: Number.MAX_SAFE_INTEGER, min: Number.MIN_SAFE_INTEGER, frac: 0.1 + 0.2, tiny: 5e-324 },
        };
        const r = await run({ inputs: { doc, big } });
        expect((await runs.getRun(r.id))!.inputs).toEqual({ doc, big });

        await runs.updateRun(r.id, { outputs: { doc, big }, error: { code: 'E', message: doc.unicode, details: doc } });
        const stored = (await runs.getRun(r.id))!;
        expect(stored.outputs).toEqual({ doc, big });
        expect(stored.error).toEqual({ code: 'E', message: doc.unicode, details: doc });

        await runs.commit(r.id, {
          nodes: [nodeRec(r.id, 'n1', { status: 'succeeded', input: { doc }, output: { big, doc }, error: null })],
          events: [ev(r.id, 1, { data: { doc, big } })],
        });
        const [node] = await runs.getNodeRuns(r.id);
        expect(node.input).toEqual({ doc });
        expect((node.output as { big: string }).big.length).toBe(big.length);
        expect(node.output).toEqual({ big, doc });
        const [event] = await runs.getEvents(r.id);
        expect(event.data).toEqual({ doc, big });
      },
    );

    it(
      'U+0000 and unpaired surrogates (jsonb cannot hold them) are stored as U+FFFD ' + 'instead of failing the commit',
      async () => {
        const raw = 'before\u0000after \ud800 lone \udc00, pair 😀, escaped \\u0000 text';
        const safe = 'before\uFFFDafter \uFFFD lone \uFFFD, pair 😀, escaped \\u0000 text';
        const r = await run({ inputs: { raw, ['k\u0000ey']: 1 } });
        expect((await runs.getRun(r.id))!.inputs).toEqual({ raw: safe, ['k\uFFFDey']: 1 });
        await runs.commit(r.id, {
          nodes: [nodeRec(r.id, 'n1', { status: 'succeeded', output: { text: raw, list: [raw], [raw]: true } })],
          events: [ev(r.id, 1, { data: { text: raw } })],
          run: { outputs: { text: raw }, error: { code: 'E', message: raw } },
        });
        expect((await runs.getNodeRuns(r.id))[0].output).toEqual({ text: safe, list: [safe], [safe]: true });
        expect((await runs.getEvents(r.id))[0].data).toEqual({ text: safe });
        expect(await runs.getRun(r.id)).toMatchObject({ outputs: { text: safe }, error: { code: 'E', message: safe } });
        // A lone backslash-u sequence that is plain text (not a NUL) is kept verbatim.
        await runs.commit(r.id, { events: [ev(r.id, 2, { data: { text: 'C:\\u0000dir' } })] });
        expect((await runs.getEvents(r.id, 1))[0].data).toEqual({ text: 'C:\\u0000dir' });
      },
    );

    it('a transition writes the status and what it derives at once, or nothing if the status moved', async () => {
      const r = await run();
      await runs.commit(r.id, {
        nodes: [nodeRec(r.id, 'n1', { status: 'succeeded' }), nodeRec(r.id, 'n2', { status: 'running' })],
        events: [ev(r.id, 1), ev(r.id, 2)],
        run: { status: 'running' },
      });
      const written = await runs.transition(r.id, ['running'], { status: 'interrupted' }, ({ nodes, maxSeq }) => ({
        nodes: nodes.filter((n) => n.status === 'running').map((n) => ({ ...n, status: 'failed' as const })),
        events: [ev(r.id, maxSeq + 1, { type: 'run.interrupted' })],
      }));
      expect(written?.events?.map((e) => e.seq)).toEqual([3]);
      expect((await runs.getRun(r.id))!.status).toBe('interrupted');
      expect(Object.fromEntries((await runs.getNodeRuns(r.id)).map((n) => [n.nodeId, n.status]))).toEqual({
        n1: 'succeeded',
        n2: 'failed',
      });
      expect((await runs.getEvents(r.id)).map((e) => e.type).at(-1)).toBe('run.interrupted');

      // Its status is no longer `running`: nothing is derived or written.
      let derived = false;
      const again = await runs.transition(r.id, ['running'], { status: 'failed' }, () => {
        derived = true;
        return {};
      });
      expect(again).toBeNull();
      expect(derived).toBe(false);
      expect((await runs.getRun(r.id))!.status).toBe('interrupted');

      // A write that fails inside it takes the status change back with it.
      await runs.commit(r.id, { run: { status: 'running' } });
      await expect(
        runs.transition(r.id, ['running'], { status: 'interrupted' }, () => ({ events: [ev(r.id, 1)] })),
      ).rejects.toThrow();
      expect((await runs.getRun(r.id))!.status).toBe('running');
      expect(await runs.maxSeq(r.id)).toBe(3);
    });
  },
);
