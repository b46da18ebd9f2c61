/**
 * Guarantee: "Run this node" (POST /api/workflows/:id/nodes/:nodeId/run) executes that one node of the draft and no
 * other, with its upstream values taken from the request (or, without them, from the last run), as a real stored run
 * that says it is a single-node run; a node whose upstream has no value is refused with UPSTREAM_MISSING.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from './support/c-services';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf } from './support/runs';

const { api } = acceptance();

describe('running one node alone', () => {
  let wf: string;

  beforeAll(async () => {
    wf = await createWorkflow(api, `Single node ${Date.now()}`, {
      nodes: [
        node('start', 'start', {
          inputs: [
            { name: 'name', type: 'string', required: true },
            { name: 'topic', type: 'string', required: true },
          ],
        }),
        node('a', 'template', { template: 'A made this for {{inputs.name}}' }, 200),
        node('b', 'template', { template: 'B read "{{a.output.text}}" about {{inputs.topic}}' }, 400),
        node('c', 'template', { template: 'C got [{{b.output.text}}]' }, 600),
        node('end', 'end', { outputs: [{ name: 'final', value: '{{c.output.text}}' }] }, 800),
      ],
      edges: chain('start', 'a', 'b', 'c', 'end'),
    });
  });

  it('refuses a node whose upstream has no value yet, naming the missing node', async () => {
    const r = await api.post(`/api/workflows/${wf}/nodes/b/run`, { inputs: { name: 'Ada', topic: 'cats' } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'UPSTREAM_MISSING', path: 'upstream.a' });
    const history = await api.expectStatus(api.get(`/api/workflows/${wf}/runs`), 200);
    expect(history).toEqual([]);
  });

  it('runs only the node, with the upstream value from the request, as a stored single-node run', async () => {
    const outcome = await api.expectStatus(
      api.post(`/api/workflows/${wf}/nodes/b/run`, {
        inputs: { name: 'Ada', topic: 'cats' },
        upstream: { a: { text: 'given by the request' } },
      }),
      200,
    );
    expect(outcome).toMatchObject({
      status: 'succeeded',
      output: { text: 'B read "given by the request" about cats' },
      error: null,
    });
    expect(outcome.events.map((e: any) => e.type)).toEqual(['node.started', 'node.succeeded']);
    expect(outcome.events.every((e: any) => e.nodeId === 'b')).toBe(true);

    const run = await api.expectStatus(api.get(`/api/runs/${outcome.runId}`), 200);
    expect(run).toMatchObject({ status: 'succeeded', workflowId: wf, singleNode: { nodeId: 'b', label: 'b' } });
    // The run holds the node and its ancestors only; downstream nodes are not part of it.
    expect(run.nodes.map((n: any) => n.nodeId).sort()).toEqual(['a', 'b', 'start']);
    // The ancestor was given its value, never executed (attempt 0); the node executed once.
    expect(nodeOf(run, 'a')).toMatchObject({
      status: 'succeeded',
      attempt: 0,
      output: { text: 'given by the request' },
    });
    expect(nodeOf(run, 'b')).toMatchObject({ status: 'succeeded', attempt: 1 });

    const events = (await eventsOf(api, outcome.runId)).map((e) => e.json);
    expect(events.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).toEqual(['b']);
    expect(events.at(-1).type).toBe('run.succeeded');

    const history = await api.expectStatus(api.get(`/api/workflows/${wf}/runs`), 200);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: outcome.runId, singleNode: { nodeId: 'b', label: 'b' } });
  });

  it('without upstream values, takes them from the last run', async () => {
    const outcome = await api.expectStatus(api.post(`/api/workflows/${wf}/nodes/c/run`, {}), 200);
    expect(outcome).toMatchObject({
      status: 'succeeded',
      output: { text: 'C got [B read "given by the request" about cats]' },
    });
    const run = await api.expectStatus(api.get(`/api/runs/${outcome.runId}`), 200);
    expect(run.singleNode).toMatchObject({ nodeId: 'c' });
    expect(run.nodes.filter((n: any) => n.attempt > 0).map((n: any) => n.nodeId)).toEqual(['c']);
    const events = (await eventsOf(api, outcome.runId)).map((e) => e.json);
    expect(events.filter((e) => e.type === 'node.started').map((e) => e.nodeId)).toEqual(['c']);
  });
});
