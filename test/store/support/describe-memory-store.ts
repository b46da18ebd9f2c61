/**
 * The MemoryStore conformance suite (engine/node-kit/agent-services.ts), written once and run on every database kind
 * (test/store/agent-memories-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryScope, MemoryStore } from '@/engine/node-kit/agent-services';
import { newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeMemoryStore(label: string, open: StoresFactory) {
  describe(`MemoryStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let memory: MemoryStore;
    let wsB = '';
    const global: MemoryScope = { kind: 'global' };
    const flow: MemoryScope = { kind: 'workflow', workflowId: 'wf_memory' };

    beforeAll(async () => {
      under = await open();
      memory = under.stores.memory;
      wsB = (await newWorkspace(under.stores)).workspaceId;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    it('saves a memory with its embedding exactly, Chinese text included', async () => {
      const { record, created } = await memory.save({
        scope: flow,
        content: '用户喜欢简短的回答',
        embedding: [0.25, -1.5, 3e-7],
        embedderId: 'offline-v1',
      });
      expect(created).toBe(true);
      expect(record).toMatchObject({
        scope: 'workflow',
        workflowId: 'wf_memory',
        content: '用户喜欢简短的回答',
        embedding: [0.25, -1.5, 3e-7],
        embedderId: 'offline-v1',
      });
      expect(record.id).toMatch(/^mem_/);
    });

    it('the same fact again (case and spacing aside) is one memory, refreshed', async () => {
      const first = await memory.save({ scope: global, content: 'Prefers tea', embedding: [1], embedderId: 'e' });
      const again = await memory.save({ scope: global, content: '  prefers   TEA ', embedding: [2], embedderId: 'e' });
      expect(again.created).toBe(false);
      expect(again.record.id).toBe(first.record.id);
      expect(again.record.embedding).toEqual([2]);
      expect(Date.parse(again.record.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.record.updatedAt));
      // Concurrent saves of one new fact: still one memory.
      const many = await Promise.all(
        Array.from({ length: 8 }, () =>
          memory.save({ scope: global, content: 'Lives in 上海', embedding: [3], embedderId: 'e' }),
        ),
      );
      expect(new Set(many.map((m) => m.record.id)).size).toBe(1);
      expect(many.filter((m) => m.created)).toHaveLength(1);
    });

    it('recalls by scope and embedder, most recently updated first, within the limit', async () => {
      await memory.save({ scope: flow, content: 'older', embedding: [0], embedderId: 'e' });
      await memory.save({ scope: flow, content: 'other model', embedding: [0], embedderId: 'f' });
      await memory.save({
        scope: { kind: 'global', workspaceId: wsB },
        content: 'B only',
        embedding: [0],
        embedderId: 'e',
      });
      const both = await memory.candidates([global, flow], 'e', 10);
      const contents = both.map((m) => m.content);
      expect(contents).toEqual(expect.arrayContaining(['Prefers tea', 'Lives in 上海', 'older']));
      expect(contents).not.toContain('other model');
      expect(contents).not.toContain('B only');
      const times = both.map((m) => Date.parse(m.updatedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(await memory.candidates([global, flow], 'e', 2)).toHaveLength(2);
      expect((await memory.candidates([{ kind: 'global', workspaceId: wsB }], 'e', 10)).map((m) => m.content)).toEqual([
        'B only',
      ]);
      expect(await memory.candidates([{ kind: 'workflow', workflowId: 'wf_none' }], 'e', 10)).toEqual([]);
    });
  });
}
