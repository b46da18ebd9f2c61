/**
 * Workflows and runs as an outside client makes and watches them: create a workflow from a graph, start a run, poll
 * GET /api/runs/:id until it settles.
 */
import { expect } from 'vitest';
import type { Client } from './client';

export const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'] as const;

/** A React-Flow-shaped node for a graph (positions do not matter to the engine). */
export function node(id: string, type: string, config: Record<string, unknown> = {}, x = 0) {
  return { id, type, position: { x, y: 0 }, data: { label: id, config } };
}

/** Edges along the given node ids, in order. */
export function chain(...ids: string[]) {
  return ids.slice(1).map((target, i) => ({ id: `e${i + 1}`, source: ids[i], target }));
}

export async function createWorkflow(api: Client, name: string, graph: unknown, extra: object = {}): Promise<string> {
  const wf = await api.expectStatus(api.post('/api/workflows', { name, graph, ...extra }), 201);
  return wf.id as string;
}

export async function startRun(api: Client, workflowId: string, inputs: object = {}, extra: object = {}) {
  const r = await api.expectStatus(api.post(`/api/workflows/${workflowId}/runs`, { inputs, ...extra }), 202);
  return r.runId as string;
}

/** Polls the run until its status is one of `statuses` (default: terminal). */
export async function waitForRun(
  api: Client,
  runId: string,
  statuses: readonly string[] = TERMINAL,
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let run: any;
  while (Date.now() < deadline) {
    run = await api.expectStatus(api.get(`/api/runs/${runId}`), 200);
    if (statuses.includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect.fail(`run ${runId} is still ${run?.status} after ${timeoutMs} ms (waiting for ${statuses.join('|')})`);
}

export async function runToEnd(api: Client, workflowId: string, inputs: object = {}, extra: object = {}) {
  return waitForRun(api, await startRun(api, workflowId, inputs, extra));
}

/** The node record of a run by node id. */
export function nodeOf(run: any, nodeId: string): any {
  const n = run.nodes.find((x: any) => x.nodeId === nodeId);
  expect(n, `node ${nodeId} in run ${run.id}`).toBeTruthy();
  return n;
}

/** Polls `fn` until it returns a truthy value. */
export async function until<T>(what: string, fn: () => Promise<T>, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
