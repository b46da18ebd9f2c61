/**
 * Direct API calls the specs use to set up fixtures and to check what the server stored. Every management route needs
 * a signed-in caller: the `request` fixture (and every page's `page.request`) carries the owner's session cookie from
 * e2e/support/global-setup.ts; a spec about other users signs them in with `signIn` in a context of its own.
 */
import { expect, type APIRequestContext } from '@playwright/test';

/** Storage state for a context that starts signed out (overrides the config's owner session). */
export const SIGNED_OUT = { cookies: [], origins: [] };

/** Signs `request` in (its cookie jar keeps the session). */
export async function signIn(request: APIRequestContext, email: string, password: string): Promise<void> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
}

export interface TraceEventLite {
  seq: number;
  type: string;
  nodeId?: string;
  data: Record<string, unknown>;
}

export async function createWorkflow(request: APIRequestContext, name: string, graph: unknown): Promise<string> {
  const res = await request.post('/api/workflows?draft=1', { data: { name, graph } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id;
}

export async function getWorkflow(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/workflows/${id}`);
  expect(res.ok()).toBeTruthy();
  return res.json();
}

export async function getRun(request: APIRequestContext, runId: string) {
  const res = await request.get(`/api/runs/${runId}`);
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/**
 * All stored events of a finished run. The stream closes after a terminal event — for a resumed run that is the
 * first attempt's `run.failed`, before the resumed part — so read on from the last seq until nothing new comes.
 */
export async function getEvents(request: APIRequestContext, runId: string): Promise<TraceEventLite[]> {
  const all: TraceEventLite[] = [];
  for (let i = 0; i < 20; i++) {
    const after = all.length ? all[all.length - 1].seq : 0;
    const res = await request.get(`/api/runs/${runId}/events?after=${after}`, { timeout: 20_000 });
    const batch = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as TraceEventLite);
    if (!batch.length) break;
    all.push(...batch);
  }
  return all;
}

/** start → one node per `middle` entry → end, laid out left to right. */
export function chain(
  middle: Array<{ id: string; type: string; label?: string; config: Record<string, unknown> }>,
  opts: {
    inputs?: Array<{ name: string; type?: string }>;
    outputs?: Array<{ name: string; value: string }>;
  } = {},
) {
  const nodes = [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { label: 'Start', config: { inputs: opts.inputs ?? [] } },
    },
    ...middle.map((m, i) => ({
      id: m.id,
      type: m.type,
      position: { x: 300 * (i + 1), y: 0 },
      data: { label: m.label ?? m.id, config: m.config },
    })),
    {
      id: 'end',
      type: 'end',
      position: { x: 300 * (middle.length + 1), y: 0 },
      data: { label: 'End', config: { outputs: opts.outputs ?? [] } },
    },
  ];
  const ids = nodes.map((n) => n.id);
  const edges = ids.slice(1).map((id, i) => ({ id: `e${i + 1}`, source: ids[i], target: id }));
  return { nodes, edges };
}
