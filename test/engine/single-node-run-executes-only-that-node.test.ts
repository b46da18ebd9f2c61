// Guarantees: a single-node run executes exactly that node — the model behind it is called once over real HTTP, the
// upstream probe nodes are never executed and the downstream one never runs — with its upstream values taken from
// the explicit `upstream`, else the named run, else the last run; an edited `input` is the config it runs with (no
// template resolved in it); an upstream node without a value is UPSTREAM_MISSING with its path, unless a seeded
// condition skips it; the run is stored, marked `debug.only`, holds the seeded snapshots, and is not resumed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaiError } from '@/engine/errors';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import {
  singleNodeOutcome,
  startSingleNodeRun,
  upstreamRunOf,
  type SingleNodeRequest,
} from '@/engine/runtime/single-node-run';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, probeCalls, probeNode, probeScript, resetProbes, type Harness } from '../support/harness';

// One database: the store conformance suites (test/store/) hold PGlite and PostgreSQL alike.
const kinds = ['pglite'] as const;
const registry = createDefaultRegistry().register(probeNode);

/** start(topic) → p1 (probe) → ask (llm) → after (probe) → end. */
function chain(): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'topic', type: 'string', required: false }] } },
      },
      { id: 'p1', type: 'probe', position: { x: 200, y: 0 }, data: { config: {} } },
      {
        id: 'ask',
        type: 'llm',
        position: { x: 400, y: 0 },
        data: {
          label: 'Ask',
          config: { model: 'fake-model', userPrompt: 'about {{p1.output.value}} / {{inputs.topic}}' },
        },
      },
      { id: 'after', type: 'probe', position: { x: 600, y: 0 }, data: { config: {} } },
      {
        id: 'end',
        type: 'end',
        position: { x: 800, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{ask.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'p1' },
      { id: 'e2', source: 'p1', target: 'ask' },
      { id: 'e3', source: 'ask', target: 'after' },
      { id: 'e4', source: 'after', target: 'end' },
    ],
  };
}

/** start → cond (yes when inputs.go = yes, else) → pYes | pNo → ask. */
function branches(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'cond',
        type: 'condition',
        position: { x: 200, y: 0 },
        data: {
          config: { branches: [{ id: 'yes', conditions: [{ left: '{{inputs.go}}', op: 'eq', right: 'yes' }] }] },
        },
      },
      { id: 'pYes', type: 'probe', position: { x: 400, y: -100 }, data: { config: {} } },
      { id: 'pNo', type: 'probe', position: { x: 400, y: 100 }, data: { config: {} } },
      {
        id: 'ask',
        type: 'llm',
        position: { x: 600, y: 0 },
        data: { config: { model: 'fake-model', userPrompt: 'no side said {{pNo.output.value}}' } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'cond' },
      { id: 'e2', source: 'cond', target: 'pYes', sourceHandle: 'yes' },
      { id: 'e3', source: 'cond', target: 'pNo', sourceHandle: 'else' },
      { id: 'e4', source: 'pYes', target: 'ask' },
      { id: 'e5', source: 'pNo', target: 'ask' },
    ],
  };
}

const lastPrompt = (fake: FakeOpenAi) => {
  const msgs = fake.requests.at(-1)?.messages ?? [];
  return String([...msgs].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '');
};

describe.each(kinds)('single-node run on %s', (kind) => {
  let h: Harness;
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createHarness(kind, {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    resetProbes();
    fake.requests.length = 0;
  });

  async function runOne(workflowId: string, req: Omit<SingleNodeRequest, 'workflow' | 'source'>, fromRunId?: string) {
    const wf = (await h.store.getWorkflow(workflowId))!;
    const source = await upstreamRunOf(h.store, wf.id, DEFAULT_WORKSPACE_ID, fromRunId);
    const started = await startSingleNodeRun(h.runs, registry, { workflow: wf, source, ...req });
    await h.runs.waitFor(started.id);
    const run = (await h.store.getRun(started.id))!;
    return { run, outcome: await singleNodeOutcome(h.store, run) };
  }

  /** Two full runs whose p1 answered `first`, then `second`; the probes' counters are reset afterwards. */
  async function twoRuns(wf: string) {
    probeScript.set('p1', { output: { value: 'first' } });
    const first = await h.runToEnd(wf, { topic: 'one' });
    probeScript.set('p1', { output: { value: 'second' } });
    const second = await h.runToEnd(wf, { topic: 'two' });
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    resetProbes();
    fake.requests.length = 0;
    return { first, second };
  }

  it('with explicit upstream values: only the node runs, once, and the run records it', async () => {
    const wf = await h.createWorkflow(chain());
    const { run, outcome } = await runOne(wf, {
      nodeId: 'ask',
      upstream: { p1: { value: 'given' } },
      inputs: { topic: 'T' },
    });

    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(lastPrompt(fake)).toBe('about given / T');
    expect(outcome.output).toMatchObject({ text: 'echo: about given / T' });
    expect(probeCalls.get('p1') ?? 0).toBe(0);
    expect(probeCalls.get('after') ?? 0).toBe(0);

    expect(run).toMatchObject({ status: 'succeeded', versionId: null, engine: 'dag', inputs: { topic: 'T' } });
    expect(run.debug).toMatchObject({ only: 'ask' });
    expect(run.graph.nodes.map((n) => n.id)).toEqual(['start', 'p1', 'ask']);
    const snaps = new Map((await h.store.getNodeRuns(run.id)).map((s) => [s.nodeId, s]));
    expect(snaps.get('p1')).toMatchObject({ status: 'succeeded', attempt: 0, output: { value: 'given' } });
    expect(snaps.get('ask')).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(snaps.has('after')).toBe(false);

    // The outcome's trace is the node's own: started and succeeded, nothing of the seeded nodes.
    const types = outcome.events.map((e) => e.type).filter((t) => t !== 'node.token');
    expect(types).toEqual(['node.started', 'node.succeeded']);
    expect(outcome.events.every((e) => e.nodeId === 'ask')).toBe(true);
    const seededNote = (await h.events(run.id)).find((e) => e.nodeId === 'p1' && e.type === 'node.progress');
    expect(seededNote?.data).toMatchObject({ seeded: 'upstream' });

    await expect(h.runs.resume(run.id, { fromNodeId: 'ask' })).rejects.toMatchObject({ code: 'SINGLE_NODE_RUN' });
  });

  it('with fromRunId: that run’s outputs and start inputs, even when it is not the last run', async () => {
    const wf = await h.createWorkflow(chain());
    const { first } = await twoRuns(wf);
    const { outcome } = await runOne(wf, { nodeId: 'ask' }, first.id);
    expect(outcome.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(lastPrompt(fake)).toBe('about first / one');
    expect([probeCalls.get('p1') ?? 0, probeCalls.get('after') ?? 0]).toEqual([0, 0]);
  });

  it('without upstream or fromRunId: the last run’s values', async () => {
    const wf = await h.createWorkflow(chain());
    await twoRuns(wf);
    const { outcome } = await runOne(wf, { nodeId: 'ask' });
    expect(outcome.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(lastPrompt(fake)).toBe('about second / two');
    expect([probeCalls.get('p1') ?? 0, probeCalls.get('after') ?? 0]).toEqual([0, 0]);
  });

  it('an edited input is exactly the config that runs: no template is resolved in it', async () => {
    const wf = await h.createWorkflow(chain());
    const input = { model: 'fake-model', userPrompt: 'edited {{p1.output.value}}' };
    const { run, outcome } = await runOne(wf, { nodeId: 'ask', upstream: { p1: { value: 'given' } }, input });
    expect(outcome.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(lastPrompt(fake)).toBe('edited {{p1.output.value}}');
    expect(outcome.input).toMatchObject(input);
    expect(run.debug).toMatchObject({ only: 'ask', input });
  });

  it('refuses what it cannot run: no value upstream, an invalid input, a node that is not upstream', async () => {
    const wf = (await h.store.getWorkflow(await h.createWorkflow(chain())))!;
    const err = (req: Partial<SingleNodeRequest>) =>
      startSingleNodeRun(h.runs, registry, { workflow: wf, nodeId: 'ask', ...req }).then(
        () => null,
        (e: PaiError) => e,
      );
    expect(await err({})).toMatchObject({ code: 'UPSTREAM_MISSING', path: 'upstream.p1' });
    expect(await err({ upstream: { p1: {} }, input: { model: 'm', userPrompt: 7 } })).toMatchObject({
      code: 'INVALID_INPUT',
      path: 'input.userPrompt',
    });
    expect(await err({ upstream: { p1: {}, after: {} } })).toMatchObject({
      code: 'NOT_UPSTREAM',
      path: 'upstream.after',
    });
    expect(await err({ nodeId: 'nope' })).toMatchObject({ code: 'NODE_NOT_FOUND' });
    expect(fake.requests).toHaveLength(0);
    expect(await h.store.listRuns(wf.id)).toHaveLength(0);
  });

  it('an upstream node on a branch a seeded condition did not take needs no value and is not run', async () => {
    const wf = await h.createWorkflow(branches());
    const { run, outcome } = await runOne(wf, {
      nodeId: 'ask',
      upstream: { cond: { branch: 'else' }, pNo: { value: 'no' } },
    });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(lastPrompt(fake)).toBe('no side said no');
    expect([probeCalls.get('pYes') ?? 0, probeCalls.get('pNo') ?? 0]).toEqual([0, 0]);
    const snaps = new Map((await h.store.getNodeRuns(run.id)).map((s) => [s.nodeId, s.status]));
    expect(snaps.get('pYes')).toBe('skipped');

    await expect(
      startSingleNodeRun(h.runs, registry, {
        workflow: (await h.store.getWorkflow(wf))!,
        nodeId: 'ask',
        upstream: { cond: { branch: 'yes' }, pNo: { value: 'no' } },
      }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_MISSING', path: 'upstream.pYes' });
  });
});
