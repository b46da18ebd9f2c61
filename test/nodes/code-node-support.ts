/**
 * Code node tests' workflow: start (declares `inputs`) → code node `c` (the given config) → end (`result` =
 * `{{c.output}}`), run to its end through the harness's RunManager; with the code node's snapshot, its trace events
 * and the console lines it reported.
 */
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import type { NodeRunRecord, RunRecord } from '@/engine/store/types';
import type { Harness } from '../support/harness';

export interface CodeRun {
  run: RunRecord;
  node: NodeRunRecord;
  events: TraceEvent[];
  console: Array<{ level: string; text: string }>;
}

/** The start input's declared type for a sample value. */
function typeOfValue(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? typeof v : 'object';
}

export function codeGraph(config: Record<string, unknown>, inputs: Record<string, unknown> = {}): Graph {
  const declared = Object.entries(inputs).map(([name, v]) => ({ name, type: typeOfValue(v), required: false }));
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: declared } },
      },
      { id: 'c', type: 'code', position: { x: 200, y: 0 }, data: { config } },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'result', value: '{{c.output}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'c' },
      { id: 'e2', source: 'c', target: 'end' },
    ],
  };
}

export async function startCode(
  h: Harness,
  config: Record<string, unknown>,
  inputs: Record<string, unknown> = {},
): Promise<string> {
  const wf = (await h.store.getWorkflow(await h.createWorkflow(codeGraph(config, inputs))))!;
  const { run } = await h.runs.start({ workflow: wf, inputs });
  return run.id;
}

export async function finishedCode(h: Harness, runId: string): Promise<CodeRun> {
  await h.runs.waitFor(runId);
  const run = (await h.store.getRun(runId))!;
  const node = (await h.store.getNodeRuns(runId)).find((n) => n.nodeId === 'c')!;
  const events = (await h.events(runId)).filter((e) => e.nodeId === 'c');
  const console = events.flatMap((e) =>
    e.type === 'node.progress' && Array.isArray(e.data.console)
      ? (e.data.console as Array<{ level: string; text: string }>)
      : [],
  );
  return { run, node, events, console };
}

export async function runCode(
  h: Harness,
  config: Record<string, unknown>,
  inputs: Record<string, unknown> = {},
): Promise<CodeRun> {
  return finishedCode(h, await startCode(h, config, inputs));
}

/** Resolves when the bus carries an event of `runId` that matches (replayed if it already happened). */
export function eventOf(h: Harness, runId: string, match: (e: TraceEvent) => boolean): Promise<TraceEvent> {
  return new Promise((resolve) => {
    const sub = { found: false, off: () => {} };
    sub.off = h.bus.subscribe(runId, 0, (e) => {
      if (sub.found || !match(e)) return;
      sub.found = true;
      sub.off();
      resolve(e);
    });
    if (sub.found) sub.off();
  });
}
