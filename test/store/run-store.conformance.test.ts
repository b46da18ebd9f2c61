// Guarantees: every RunStore (PGlite and PostgreSQL) behaves identically: idempotent createRun, CAS updateRun, atomic commit, snapshot upsert, event paging, heartbeats, stale-run detection, exact JSON round-trips, cascade deletes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { PrismaStore } from '@/engine/store/prisma/prisma-store';
import type { NewRun, NodeRunRecord, RunStore } from '@/engine/store/types';
import { openTestDb, storeKinds, type TestDb } from '../support/databases';

const kinds = await storeKinds();

const GRAPH: Graph = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
    { id: 'end', type: 'end', position: { x: 200, y: 0 }, data: { config: { outputs: [] } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
};

const id = (p: string) => `${p}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newRun(workflowId: string, patch: Partial<NewRun> = {}): NewRun {
  return {
    id: id('run'),
    workflowId,
    versionId: null,
    engine: 'dag',
    status: 'queued',
    inputs: { q: 'hello' },
    graph: GRAPH,
    ...patch,
  };
}

function nodeRec(runId: string, nodeId: string, patch: Partial<NodeRunRecord> = {}): NodeRunRecord {
  return {
    runId,
    nodeId,
    type: 'probe',
    status: 'running',
    attempt: 1,
    input: { a: 1 },
    output: null,
    error: null,
    usage: null,
    startedAt: '2024-05-01T10:00:00.123Z',
    finishedAt: null,
    durationMs: null,
    ...patch,
  };
}

function ev(runId: string, seq: number, patch: Partial<TraceEvent> = {}): TraceEvent {
  return {
    seq,
    runId,
    ts: new Date(Date.UTC(2024, 4, 1, 10, 0, 0, seq)).toISOString(),
    type: 'node.progress',
    nodeId: 'n1',
    spanId: `span${seq}`,
    parentSpanId: 'root',
    data: { i: seq },
    ...patch,
  };
}

// The app wires the store with the raw driver for commits (db.sql); without it, commits go through Prisma. Both must conform.
const cases = kinds.flatMap((kind) => [
  { kind, commitPath: 'driver' as const },
  { kind, commitPath: 'prisma' as const },
]);

describe.each(cases)('RunStore conformance on $kind (commit via $commitPath)', ({ kind, commitPath }) => {
  let tdb: TestDb;
  let store: PrismaStore;
  let runs: RunStore;

  beforeAll(async () => {
    tdb = await openTestDb(kind);
    store =
      commitPath === 'driver' ? new PrismaStore(tdb.db.prisma, kind, tdb.db.sql) : new PrismaStore(tdb.db.prisma, kind);
    runs = store;
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  async function workflow(): Promise<string> {
    return (
      await store.createWorkflow({ id: id('wf'), name: 'conformance', description: '', graph: GRAPH, engine: 'auto' })
    ).id;
  }

  async function run(patch: Partial<NewRun> = {}) {
    const wf = patch.workflowId ?? (await workflow());
    const { run: r, created } = await runs.createRun(newRun(wf, patch));
    expect(created).toBe(true);
    return r;
  }

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

  it('createRun is idempotent per (workflowId, idempotencyKey): the second call returns the existing run, created:false', async () => {
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
  });

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
      await runs.updateRun(r.id, { status: 'running', ownerId: 'owner-a', heartbeatAt: hb, startedAt: hb }, ['queued']),
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

  it('findStaleRuns returns queued/running runs whose heartbeat (or creation, if none) is older than the cut-off', async () => {
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
    await runs.updateRun(failedOld.id, { status: 'failed', ownerId: 'dead', heartbeatAt: '2024-01-01T00:00:00.000Z' });
    const queuedNoHeartbeat = await run({ workflowId: wf }); // created now, never heart-beaten

    const ids = (d: Date) =>
      runs.findStaleRuns(d).then((rs) =>
        rs
          .filter((r) => r.workflowId === wf)
          .map((r) => r.id)
          .sort(),
      );
    expect(await ids(cut)).toEqual([staleRunning.id]);
    // A cut-off in the future: every active run is stale, including ones that never heart-beat; finished runs never are.
    expect(await ids(new Date(Date.now() + 60_000))).toEqual(
      [staleRunning.id, freshRunning.id, queuedNoHeartbeat.id].sort(),
    );
    const found = (await runs.findStaleRuns(cut)).find((r) => r.id === staleRunning.id)!;
    expect(found).toMatchObject({ status: 'running', ownerId: 'dead' });
  });

  // ── JSON fidelity ──────────────────────────────────────────────────────────────
  it('JSON round-trips exactly: nested structures, unicode and ~1 MB strings in runs, snapshots and events', async () => {
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
  });

  it('U+0000 and unpaired surrogates (jsonb cannot hold them) are stored as U+FFFD instead of failing the commit', async () => {
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
  });

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
});
