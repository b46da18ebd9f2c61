/**
 * The one graph of the crash harness (test/engine/a-killed-process-resumes-without-re-running-what-succeeded.test.ts),
 * three branches from Start that the child process is killed in the middle of, all at once:
 * - a chain of probe nodes p1 → p2 → p3 → p4 (p3 is still executing at the kill);
 * - a parallel loop over `inputs.items` (concurrency 3) whose body POSTs each item to the test's gate server
 *   (some items finished and checkpointed at the kill, others in flight);
 * - an Agent node whose model is the test's scripted server and whose http_fetch reaches the test's counting target
 *   (rounds 1–2 done and checkpointed at the kill, round 3's model request unanswered).
 * End joins the three: `last` (p4's output), `results` (the loop's) and `text` (the agent's answer). The DAG engine
 * runs no cycles, so `withLoop: false` leaves the loop out (the graph it runs).
 */
import type { Graph } from '@/engine/graph/schema';
import { agentGraph } from '../agent/support/durable-agent';
import { fetchLoopGraph } from '../engine/loop-concurrency-support';

export function crashGraph(gateBase: string, withLoop = true): Graph {
  const loop = fetchLoopGraph(gateBase, { concurrency: 3 });
  const agent = agentGraph();
  const pick = (g: Graph, ids: string[]) => g.nodes.filter((n) => ids.includes(n.id));
  const probes = ['p1', 'p2', 'p3', 'p4'].map((id, i) => ({
    id,
    type: 'probe',
    position: { x: 200 * (i + 1), y: 200 },
    data: { config: {} },
  }));
  return {
    nodes: [
      ...pick(loop, withLoop ? ['start', 'loop', 'fetch'] : ['start']),
      ...probes,
      ...pick(agent, ['a1']),
      {
        id: 'end',
        type: 'end',
        position: { x: 1200, y: 0 },
        data: {
          config: {
            outputs: [
              { name: 'last', value: '{{p4.output}}' },
              ...(withLoop ? [{ name: 'results', value: '{{loop.output.results}}' }] : []),
              { name: 'text', value: '{{a1.output.text}}' },
            ],
          },
        },
      },
    ],
    edges: [
      ...(withLoop ? loop.edges.filter((e) => e.target !== 'end') : []),
      { id: 'c1', source: 'start', target: 'p1' },
      { id: 'c2', source: 'p1', target: 'p2' },
      { id: 'c3', source: 'p2', target: 'p3' },
      { id: 'c4', source: 'p3', target: 'p4' },
      { id: 'c5', source: 'start', target: 'a1' },
      ...(withLoop ? [{ id: 'j1', source: 'loop', target: 'end', sourceHandle: 'done' }] : []),
      { id: 'j2', source: 'p4', target: 'end' },
      { id: 'j3', source: 'a1', target: 'end' },
    ],
  } as Graph;
}
