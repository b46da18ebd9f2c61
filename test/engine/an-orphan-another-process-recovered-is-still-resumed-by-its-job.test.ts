// Guarantee: a queued run's job finishes the run even when another process's reaper marks the orphan interrupted at
// the same moment. The job's holder reads the run as `running` (its owner died), then finds it already
// `interrupted` by someone else: it still resumes it, instead of ending the job and leaving the run interrupted with
// nobody to take it (seen under load as handed-over runs that never finished, test/queue/worker-killed-…).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRunId } from '@/engine/runtime/run-manager';
import type { RunRecord } from '@/engine/store/types';
import { chainGraph, createHarness, interceptStore, probeCalls, resetProbes, type Harness } from '../support/harness';

describe('executeQueued racing a reaper', () => {
  let h: Harness;
  /** Set to a run id: its next read first lets "another process" recover it, then answers what was read before. */
  let raceOn: string | null = null;
  let recoverElsewhere: (runId: string) => Promise<unknown> = async () => {};

  beforeAll(async () => {
    h = await createHarness('pglite', {
      wrapStore: (store) =>
        interceptStore(store, {
          async getRun(runId: string): Promise<RunRecord | null> {
            const before = await store.getRun(runId);
            if (raceOn === runId) {
              raceOn = null;
              await recoverElsewhere(runId);
            }
            return before;
          },
        }),
    });
    recoverElsewhere = (runId) => h.runs.recover(new Date(Date.now() + 1000), runId);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('resumes the run the reaper marked interrupted between its read and its own recovery', async () => {
    resetProbes();
    const wf = await h.createWorkflow(chainGraph(2), 'orphan', 'dag');
    const workflow = (await h.store.getWorkflow(wf))!;
    const { run } = await h.store.createRun({
      id: newRunId(),
      workflowId: wf,
      versionId: null,
      engine: 'dag',
      status: 'running',
      inputs: {},
      graph: workflow.graph,
    });
    // Its owner died a minute ago, in the middle of the run.
    await h.store.updateRun(run.id, {
      ownerId: '999999-dead',
      heartbeatAt: new Date(Date.now() - 60_000).toISOString(),
      startedAt: new Date().toISOString(),
    });

    raceOn = run.id;
    expect(await h.runs.executeQueued(run.id)).toBe('resumed');
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(probeCalls.get('p1')).toBe(1);
    const events = await h.events(run.id);
    expect(events.filter((e) => e.type === 'run.interrupted')).toHaveLength(1);
  });
});
