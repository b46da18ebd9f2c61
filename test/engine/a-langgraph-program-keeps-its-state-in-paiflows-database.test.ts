// Guarantees: a LangGraph.js program of its own can use PaiFlow's database as its checkpointer (the example in
// docs/architecture.md): its state survives a restart of the process, interrupt() pauses it and
// Command({ resume }) continues it after the restart, getStateHistory lists its steps, and invoking from an earlier
// checkpoint forks the thread there, re-running only what came after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreCheckpointSaver } from '@/engine/runtime/checkpoint-saver';
import { openStores } from '@/engine/store/app/open-stores';
import type { Stores } from '@/engine/store/app/stores';
import { seedDataDir } from '../support/pglite-template';

const State = Annotation.Root({
  notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** A draft, a person's approval, a summary: the program the docs show, counting how often each step ran. */
function program(checkpointer: StoreCheckpointSaver, ran: Record<string, number>) {
  const count = (step: string) => (ran[step] = (ran[step] ?? 0) + 1);
  return new StateGraph(State)
    .addNode('draft', () => (count('draft'), { notes: ['draft'] }))
    .addNode('approve', () => {
      count('approve');
      const answer = interrupt<string, string>('approve the draft?');
      return { notes: [`approved: ${answer}`] };
    })
    .addNode('summary', (s) => (count('summary'), { notes: [`summary of ${s.notes.length}`] }))
    .addEdge(START, 'draft')
    .addEdge('draft', 'approve')
    .addEdge('approve', 'summary')
    .addEdge('summary', END)
    .compile({ checkpointer });
}

describe('a LangGraph program keeps its state in PaiFlow’s database', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paiflow-langgraph-'));
  seedDataDir(dataDir); // already migrated: the program's first open is a second start
  let stores: Stores | undefined;
  afterAll(async () => {
    await stores?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const config = { configurable: { thread_id: 'review-42' } };

  it('pauses on interrupt(), survives a restart, resumes with Command, forks from an earlier checkpoint', async () => {
    stores = await openStores({ dataDir });
    const ran: Record<string, number> = {};
    const first = program(new StoreCheckpointSaver(stores.checkpoints), ran);
    await first.invoke({ notes: ['hi'] }, config);
    expect((await first.getState(config)).tasks[0]?.interrupts[0]?.value).toBe('approve the draft?');
    await stores.close();

    // A new process: the same database, a new saver and a newly compiled program.
    stores = await openStores({ dataDir });
    const graph = program(new StoreCheckpointSaver(stores.checkpoints), ran);
    const paused = await graph.getState(config);
    expect(paused.next).toEqual(['approve']);
    expect(paused.values.notes).toEqual(['hi', 'draft']);

    const done = await graph.invoke(new Command({ resume: 'yes' }), config);
    expect(done.notes).toEqual(['hi', 'draft', 'approved: yes', 'summary of 3']);
    expect(ran).toEqual({ draft: 1, approve: 2, summary: 1 }); // approve ran again on resume, as LangGraph does

    const history = [];
    for await (const s of graph.getStateHistory(config)) history.push(s);
    expect(history.map((s) => s.next)).toEqual([[], ['summary'], ['approve'], ['draft'], ['__start__']]);

    // Fork from the checkpoint before the approval, with the draft edited: only approve and summary run again.
    const beforeApproval = history.find((s) => s.next[0] === 'approve')!;
    const forked = await graph.updateState(beforeApproval.config, { notes: ['edited draft'] });
    await graph.invoke(null, forked);
    const again = await graph.invoke(new Command({ resume: 'still yes' }), config);
    expect(again.notes).toEqual(['hi', 'draft', 'edited draft', 'approved: still yes', 'summary of 4']);
    expect(ran).toEqual({ draft: 1, approve: 4, summary: 2 });
  });
});
