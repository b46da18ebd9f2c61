// Guarantees: long-term memory saved by an Agent in one run is recalled (by embedding similarity) into the system
// prompt of a later run of the same workflow, is not visible to another workflow when scoped to the first, global
// memories reach every workflow, content is de-duplicated, older memories decay, and injection respects its token
// budget with whole entries only. Runs on the embedded store and on PostgreSQL when reachable.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '@/engine/agent/memory/hashing-embedder';
import { cosine, createMemoryHandle, decay, memoryPromptBlock } from '@/engine/agent/memory/memory';
import { contentHash, PrismaMemoryStore, scopeKey } from '@/engine/store/prisma/memory-store';
import type { MemoryRecord, MemoryScope, MemoryStore } from '@/engine/node-kit/agent-services';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { postgresAvailable } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, type AgentHarness } from './support/agent-harness';

const FACT = "The customer's favourite colour is teal.";
const systemOf = (req: any) => req.messages.find((m: any) => m.role === 'system')?.content ?? '';

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`long-term memory (${kind})`, async () => {
    const pgOk = kind === 'pglite' || (await postgresAvailable());
    let fake: FakeOpenAi;
    let h: AgentHarness;

    beforeAll(async () => {
      if (!pgOk) return;
      fake = await startFakeOpenAi();
      h = await createAgentHarness({
        kind,
        llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      });
    });
    afterAll(async () => {
      await h?.close();
      await fake?.close();
    });
    beforeEach(() => {
      if (fake) fake.requests.length = 0;
    });

    it.skipIf(!pgOk)(
      'a memory saved in run 1 is recalled in run 2 of the same workflow, not in another workflow',
      async () => {
        const config = {
          tools: ['memory_save', 'memory_recall'],
          systemPrompt: 'You help customers.',
          memory: { scope: 'workflow' },
        };
        const wfA = await h.createWorkflow(agentGraph(config), 'A');
        const wfB = await h.createWorkflow(agentGraph(config), 'B');

        fake.script(
          { toolCalls: [{ id: 's1', name: 'memory_save', arguments: { content: FACT } }] },
          { text: 'I will remember that.' },
        );
        const run1 = await h.runToEnd(wfA, { question: 'Please remember: my favourite colour is teal.' });
        expect(run1.status).toBe('succeeded');
        expect(fake.requests[1].messages.find((m: any) => m.role === 'tool').content).toMatch(
          /^saved to memory \(mem_/,
        );
        expect(systemOf(fake.requests[0])).toBe('You help customers.'); // nothing to recall yet

        fake.requests.length = 0;
        fake.script({ text: 'Teal.' });
        const run2 = await h.runToEnd(wfA, { question: "What is the customer's favourite colour?" });
        expect(run2.status).toBe('succeeded');
        const sys2 = systemOf(fake.requests[0]);
        expect(sys2.startsWith('You help customers.\n\nLong-term memory')).toBe(true);
        expect(sys2).toContain(FACT);
        const hits = (await h.events(run2.id)).find((e) => e.type === 'retrieval.hits')!;
        expect(hits.data.source).toBe('memory');
        expect((hits.data.hits as any[])[0]).toMatchObject({ content: FACT, scope: 'workflow' });
        const node = (await h.store.getNodeRuns(run2.id)).find((n) => n.nodeId === 'a1')!;
        expect((node.output as any).memoriesRecalled).toBe(1);

        fake.requests.length = 0;
        fake.script(
          { toolCalls: [{ id: 'r1', name: 'memory_recall', arguments: { query: 'favourite colour' } }] },
          { text: 'I do not know.' },
        );
        const run3 = await h.runToEnd(wfB, { question: "What is the customer's favourite colour?" });
        expect(run3.status).toBe('succeeded');
        expect(systemOf(fake.requests[0])).toBe('You help customers.');
        expect(fake.requests[1].messages.find((m: any) => m.role === 'tool').content).toBe('no matching memories');
      },
    );

    it.skipIf(!pgOk)(
      'global memories reach every workflow; saving the same fact again does not duplicate it',
      async () => {
        const config = { tools: ['memory_save'], memory: { scope: 'global' } };
        const wfA = await h.createWorkflow(agentGraph(config), 'G1');
        const wfB = await h.createWorkflow(agentGraph(config), 'G2');
        const fact = 'The office wifi password rotates every Monday.';
        fake.script(
          {
            toolCalls: [
              { id: 'g1', name: 'memory_save', arguments: { content: fact } },
              { id: 'g2', name: 'memory_save', arguments: { content: `  ${fact.toUpperCase()}  ` } },
            ],
          },
          { text: 'saved' },
        );
        expect((await h.runToEnd(wfA)).status).toBe('succeeded');
        // The two calls run in parallel: either may win, exactly one creates the memory.
        const contents = fake.requests[1].messages
          .filter((m: any) => m.role === 'tool')
          .map((m: any) => m.content.split(' (')[0]);
        expect(contents.sort()).toEqual(['already in memory', 'saved to memory']);
        const rows = await h.tdb.db.prisma.agentMemory.findMany({ where: { scopeKey: 'workspace:ws_default' } });
        expect(rows.filter((r) => r.content.toLowerCase().includes('wifi password'))).toHaveLength(1);

        fake.requests.length = 0;
        fake.script({ text: 'It rotates on Mondays.' });
        await h.runToEnd(wfB, { question: 'When does the office wifi password rotate?' });
        // Whichever of the two parallel saves won keeps its spelling.
        expect(systemOf(fake.requests[0]).toLowerCase()).toContain(fact.toLowerCase());
      },
    );

    it.skipIf(!pgOk)('concurrent saves of one fact leave one row; saving again refreshes updatedAt', async () => {
      const store = new PrismaMemoryStore(h.tdb.db.prisma);
      const scope: MemoryScope = { kind: 'workflow', workflowId: 'wf_concurrent' };
      const saves = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.save({ scope, content: 'Same fact.', embedding: [1, 0], embedderId: 'e' }),
        ),
      );
      expect(saves.filter((s) => s.created)).toHaveLength(1);
      expect(new Set(saves.map((s) => s.record.id)).size).toBe(1);
      const before = saves[0].record.updatedAt;
      await new Promise((r) => setTimeout(r, 20));
      const again = await store.save({ scope, content: 'same   FACT.', embedding: [0, 1], embedderId: 'e' });
      expect(again.created).toBe(false);
      expect(again.record.embedding).toEqual([0, 1]);
      expect(again.record.content).toBe('Same fact.');
      expect(Date.parse(again.record.updatedAt)).toBeGreaterThan(Date.parse(before));
      expect(Math.abs(Date.parse(again.record.updatedAt) - Date.now())).toBeLessThan(60_000); // stored as UTC
      expect(await store.candidates([scope], 'e', 10)).toHaveLength(1);
      expect(await store.candidates([scope], 'other-embedder', 10)).toHaveLength(0);
      expect(await store.candidates([{ kind: 'workflow', workflowId: 'someone-else' }], 'e', 10)).toHaveLength(0);
    });
  });
}

describe('memory recall ranking', () => {
  /** An in-memory MemoryStore: the ranking logic is independent of the database. */
  function memStore(): MemoryStore & { rows: MemoryRecord[] } {
    const rows: MemoryRecord[] = [];
    const key = (s: MemoryScope) => (s.kind === 'global' ? 'global' : `workflow:${s.workflowId}`);
    return {
      rows,
      async save(e) {
        const rec: MemoryRecord = {
          id: `m${rows.length}`,
          scope: e.scope.kind,
          workflowId: e.scope.kind === 'workflow' ? e.scope.workflowId : null,
          content: e.content,
          embedding: e.embedding,
          embedderId: e.embedderId,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        };
        rows.push(rec);
        return { record: rec, created: true };
      },
      async candidates(scopes, embedderId) {
        const keys = new Set(scopes.map(key));
        return rows.filter(
          (r) => keys.has(r.scope === 'global' ? 'global' : `workflow:${r.workflowId}`) && r.embedderId === embedderId,
        );
      },
    };
  }

  it('ranks by similarity × time decay, keeps top-K above the threshold', async () => {
    const store = memStore();
    const embedder = new HashingEmbedder();
    const scope: MemoryScope = { kind: 'global' };
    const m = createMemoryHandle({
      store,
      embedder,
      saveScope: scope,
      recallScopes: [scope],
      recall: { topK: 2, minScore: 0.3, halfLifeDays: 30 },
    });
    await m.save('Invoices are sent on the first of every month.');
    await m.save('Invoices for enterprise customers are sent quarterly.');
    await m.save('The cafeteria serves lunch from noon.');
    // Age the first memory by 60 days (two half-lives): its score drops to a quarter.
    store.rows[0].updatedAt = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const hits = await m.recall('When are invoices sent?');
    expect(hits.map((x) => x.content)).toEqual(['Invoices for enterprise customers are sent quarterly.']);
    const undecayed = createMemoryHandle({
      store,
      embedder,
      saveScope: scope,
      recallScopes: [scope],
      recall: { topK: 2, minScore: 0.3, halfLifeDays: 0 },
    });
    const both = await undecayed.recall('When are invoices sent?');
    expect(both).toHaveLength(2);
    expect(both.every((x) => x.content.startsWith('Invoices'))).toBe(true);
    expect(both[0].score).toBeGreaterThanOrEqual(both[1].score);
  });

  it('helpers: cosine, decay, and a prompt block of whole entries within the budget', async () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 1])).toBeCloseTo(0);
    const now = Date.parse('2026-01-31T00:00:00Z');
    expect(decay('2026-01-01T00:00:00Z', 30, now)).toBeCloseTo(0.5);
    expect(decay('2026-01-01T00:00:00Z', 0, now)).toBe(1);
    const mk = (content: string, score: number) => ({
      id: content,
      content,
      score,
      similarity: score,
      scope: 'global' as const,
      updatedAt: '2026-01-01T00:00:00Z',
    });
    const long = mk('L'.repeat(400), 0.9);
    const short = mk('short fact', 0.8);
    const block = memoryPromptBlock([long, short], 60);
    expect(block.used.map((u) => u.id)).toEqual(['short fact']); // the long one would not fit whole: skipped, never cut
    expect(block.text).toContain('- short fact (saved 2026-01-01)');
    expect(block.text).not.toContain('LLLL');
    expect(memoryPromptBlock([long], 10).text).toBe('');
  });

  it('the hashing embedder is deterministic, normalised, and sees lexical overlap', async () => {
    const e = new HashingEmbedder();
    const [a, b, c, a2] = await e.embed([
      FACT,
      "What is the customer's favourite colour?",
      'Quarterly revenue grew by ten percent.',
      FACT,
    ]);
    expect(a).toEqual(a2);
    expect(a).toHaveLength(256);
    expect(Math.hypot(...a)).toBeCloseTo(1);
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, c)).toBeLessThan(0.2);
  });

  it('scope keys keep workflows and workspaces apart; content hashes ignore case and spacing', () => {
    expect(scopeKey({ kind: 'global' })).toBe('workspace:ws_default');
    expect(scopeKey({ kind: 'global', workspaceId: 'ws_b' })).toBe('workspace:ws_b');
    expect(scopeKey({ kind: 'workflow', workflowId: 'wf1' })).toBe('workflow:wf1');
    expect(contentHash('  Hello   World ')).toBe(contentHash('hello world'));
    expect(contentHash('hello world')).not.toBe(contentHash('hello worlds'));
  });
});
