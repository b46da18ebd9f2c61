// Guarantees: cancelling a run aborts its in-flight work — a hanging node and a real HTTP request to an
// OpenAI-compatible server (the client disconnects) — and leaves the run and node `cancelled` with run.cancelled as the
// last event.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/engine/events/in-process-bus';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { RunManager } from '@/engine/runtime/run-manager';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import {
  chainGraph,
  createHarness,
  probeCalls,
  probeNode,
  probeScript,
  resetProbes,
  type Harness,
} from '../support/harness';
import { until } from '../support/until';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;

/** Resolves when the promise does; fails with a clear message instead of a bare test timeout. */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, rej) => {
        t = setTimeout(() => rej(new Error(`${what} did not happen within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(t);
  }
}

/**
 * A TCP pass-through in front of the fake server that records each client connection and whether the client hung up.
 */
interface Conn {
  bytesFromClient: number;
  closedByClient: boolean;
}
async function startProxy(targetPort: number): Promise<{ url: string; conns: Conn[]; close(): Promise<void> }> {
  const conns: Conn[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const c: Conn = { bytesFromClient: 0, closedByClient: false };
    conns.push(c);
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (d) => {
      c.bytesFromClient += d.length;
    });
    client.on('end', () => {
      c.closedByClient = true;
      upstream.end();
    });
    client.on('close', () => {
      c.closedByClient = true;
      upstream.destroy();
    });
    client.on('error', () => {});
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    conns,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

function llmGraph(config: Record<string, unknown>): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'ask',
        type: 'llm',
        position: { x: 200, y: 0 },
        data: { config: { model: 'fake-model', userPrompt: 'tell me a long story', ...config } },
      },
      { id: 'after', type: 'probe', position: { x: 400, y: 0 }, data: { config: {} } },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{ask.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'ask' },
      { id: 'e2', source: 'ask', target: 'after' },
      { id: 'e3', source: 'after', target: 'end' },
    ],
  };
}

const seqsContiguous = (events: TraceEvent[]) => expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

const cases = kinds.flatMap((kind) => (['dag', 'langgraph'] as const).map((engine) => [kind, engine] as const));

describe.each(cases)('cancel on %s, %s engine', (kind, engine) => {
  let h: Harness;
  let fake: FakeOpenAi;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    proxy = await startProxy(Number(new URL(fake.baseURL).port));
    h = await createHarness(kind, { llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: proxy.url }) });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    await fake?.close();
  });
  beforeEach(() => resetProbes());

  async function startRun(graph: Graph) {
    const wf = await h.createWorkflow(graph, 'cancel', engine);
    const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
    return run.id;
  }

  async function expectCancelled(runId: string, nodeId: string) {
    const run = (await h.store.getRun(runId))!;
    expect(run.status).toBe('cancelled');
    expect(run.error?.code).toBe('CANCELLED');
    expect(run.finishedAt).not.toBeNull();
    const nodes = Object.fromEntries((await h.store.getNodeRuns(runId)).map((n) => [n.nodeId, n]));
    expect(nodes[nodeId]).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    const events = await h.events(runId);
    seqsContiguous(events);
    expect(events.at(-1)?.type).toBe('run.cancelled');
    expect(events.filter((e) => e.type === 'run.cancelled')).toHaveLength(1);
    expect(events.find((e) => e.type === 'node.failed' && e.nodeId === nodeId)?.data).toMatchObject({
      cancelled: true,
    });
    return { run, nodes, events };
  }

  it(
    'cancel aborts a node that hangs until aborted: ' + 'run and node end `cancelled`, successors never start',
    async () => {
      probeScript.set('p2', { hang: true });
      const runId = await startRun(chainGraph(3));
      await until(() => probeCalls.get('p2') === 1, 'p2 to start');

      const answer = await h.runs.cancel(runId);
      expect(answer.id).toBe(runId);
      await within(h.runs.waitFor(runId), 10_000, 'the run ending after cancel');
      const { nodes } = await expectCancelled(runId, 'p2');
      expect(nodes.p1.status).toBe('succeeded');
      expect(nodes.p3).toBeUndefined();
      expect(probeCalls.get('p3')).toBeUndefined();
      expect(h.runs.isActive(runId)).toBe(false);

      await expect(h.runs.cancel(runId)).rejects.toMatchObject({ code: 'RUN_NOT_ACTIVE' });
    },
  );

  it('cancel during a streaming LLM call aborts the HTTP request: the server sees the client disconnect', async () => {
    fake.script({ text: 'Once upon a time there was a very long story that never ends', hang: true });
    const before = proxy.conns.length;
    const tokens: TraceEvent[] = [];
    const runId = await startRun(llmGraph({ stream: true }));
    const unsubscribe = h.bus.subscribe(runId, 0, (e) => {
      if (e.type === 'node.token') tokens.push(e);
    });
    try {
      await until(() => tokens.length > 0, 'the first streamed token'); // the request is in flight, mid-response
    } finally {
      unsubscribe();
    }
    const conn = proxy.conns.slice(before).find((c) => c.bytesFromClient > 0)!;
    expect(conn).toBeDefined();
    expect(conn.closedByClient).toBe(false);

    await h.runs.cancel(runId);
    await within(h.runs.waitFor(runId), 10_000, 'the run ending after cancel');
    const { nodes } = await expectCancelled(runId, 'ask');
    expect(nodes.after).toBeUndefined();
    expect(probeCalls.get('after')).toBeUndefined();
    // The cancelled node keeps what it had streamed.
    const streamed = tokens.map((t) => String(t.data.delta)).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect((nodes.ask.error as { details?: { streamedText?: string } }).details?.streamedText).toContain(streamed);
    await until(() => conn.closedByClient, 'the client to close its connection to the LLM server');
    expect(fake.requests.at(-1)).toMatchObject({ stream: true, model: 'fake-model' });
  });

  it('cancel during a non-streaming LLM call that never answers aborts the HTTP request', async () => {
    fake.script({ text: 'never sent', hang: true });
    const before = proxy.conns.length;
    const requests = fake.requests.length;
    const runId = await startRun(llmGraph({ stream: false }));
    await until(() => fake.requests.length === requests + 1, 'the LLM request to arrive');
    const conn = proxy.conns.slice(before).find((c) => c.bytesFromClient > 0)!;
    expect(conn.closedByClient).toBe(false);

    await h.runs.cancel(runId);
    await within(h.runs.waitFor(runId), 10_000, 'the run ending after cancel');
    await expectCancelled(runId, 'ask');
    await until(() => conn.closedByClient, 'the client to close its connection to the LLM server');
    expect(fake.requests.length).toBe(requests + 1); // aborted, not retried
  });

  // cancel() on a process that does not own the run only flips the stored status; the owner sees it on its next
  // heartbeat, aborts, and writes run.cancelled itself (its journal owns the run's seq).
  it("a cancel received by another process (shared database) stops the owner's execution", async () => {
    probeScript.set('p2', { hang: true });
    const runId = await startRun(chainGraph(3));
    await until(() => probeCalls.get('p2') === 1, 'p2 to start');
    const other = new RunManager({
      store: h.store,
      workflows: h.store,
      bus: new InProcessEventBus(),
      registry: createDefaultRegistry().register(probeNode),
      services: { llm: createLlmResolver({}), fetch: createGuardedFetch(), secrets: { get: () => undefined } },
    });
    try {
      await other.cancel(runId);
      await within(h.runs.waitFor(runId), 5_000, 'the owner stopping after a cancel from another process');
      const { nodes } = await expectCancelled(runId, 'p2');
      expect(nodes.p3).toBeUndefined();
    } finally {
      await other.close();
      if (h.runs.isActive(runId)) await h.runs.cancel(runId).catch(() => {});
      await h.runs.waitFor(runId);
    }
  });
});
