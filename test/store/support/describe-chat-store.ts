/**
 * The ChatStore conformance suite, written once and run on every database kind
 * (test/store/chat-conversations-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '@/engine/store/app/stores';
import { newId, newWorkflow, type StoresFactory, type StoresUnderTest } from './stores-under-test';

export function describeChatStore(label: string, open: StoresFactory) {
  describe(`ChatStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let stores: Stores;

    beforeAll(async () => {
      under = await open();
      stores = under.stores;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const conversation = async (workflowId: string, owner = 'session:a') =>
      stores.chat.createConversation({ id: newId('conv'), workflowId, owner, title: 'Hello' });

    it('messages are numbered in order, also when two turns append at once', async () => {
      const wf = await newWorkflow(stores);
      const c = await conversation(wf);
      expect(await stores.chat.getConversation(wf, c.id)).toMatchObject({
        id: c.id,
        owner: 'session:a',
        title: 'Hello',
      });
      await stores.chat.appendMessages(c.id, [{ id: newId('msg'), role: 'user', content: 'one' }]);
      await Promise.all([
        stores.chat.appendMessages(c.id, [{ id: newId('msg'), role: 'user', content: 'two' }]),
        stores.chat.appendMessages(c.id, [{ id: newId('msg'), role: 'user', content: 'three' }]),
      ]);
      const list = await stores.chat.listMessages(c.id);
      expect(list.map((m) => m.seq)).toEqual([1, 2, 3]);
      expect(list[0].content).toBe('one');
      expect(new Set(list.slice(1).map((m) => m.content))).toEqual(new Set(['two', 'three']));
    });

    it('keeps conversation variables: writes replace the names written and keep the others, also at once', async () => {
      const wf = await newWorkflow(stores);
      const c = await conversation(wf);
      const other = await conversation(wf);
      expect(await stores.chat.variablesOf(c.id)).toEqual({});
      expect(await stores.chat.variablesOf('conv_missing')).toBeNull();
      await stores.chat.writeVariables(c.id, { visits: 1, notes: ['a'], profile: { name: 'Ada' } });
      await Promise.all([
        stores.chat.writeVariables(c.id, { visits: 2 }),
        stores.chat.writeVariables(c.id, { notes: ['a', 'b\u0000'] }),
      ]);
      expect(await stores.chat.variablesOf(c.id)).toEqual({
        visits: 2,
        notes: ['a', 'b\uFFFD'],
        profile: { name: 'Ada' },
      });
      expect(await stores.chat.variablesOf(other.id)).toEqual({});
      await stores.chat.writeVariables('conv_missing', { visits: 9 });
    });

    it('reads a range of messages by number', async () => {
      const wf = await newWorkflow(stores);
      const c = await conversation(wf);
      await stores.chat.appendMessages(
        c.id,
        ['a', 'b', 'c', 'd'].map((content) => ({ id: newId('msg'), role: 'user' as const, content })),
      );
      const range = await stores.chat.listMessages(c.id, { fromSeq: 2, toSeq: 3 });
      expect(range.map((m) => [m.seq, m.content])).toEqual([
        [2, 'b'],
        [3, 'c'],
      ]);
    });

    it('prunes the conversations used least recently beyond an owner’s and an app’s bound', async () => {
      const wf = await newWorkflow(stores);
      const mine = [];
      for (let i = 0; i < 4; i++) {
        const c = await conversation(wf, 'session:mine');
        await stores.chat.appendMessages(c.id, [{ id: newId('msg'), role: 'user', content: `m${i}` }]);
        mine.push(c);
      }
      // The oldest is used again: it becomes the most recent.
      await stores.chat.appendMessages(mine[0].id, [{ id: newId('msg'), role: 'user', content: 'again' }]);
      const other = await conversation(wf, 'session:other');
      expect(await stores.chat.pruneConversations(wf, 'session:mine', { perOwner: 2, perApp: 100 })).toBe(2);
      const left = async (c: { id: string }) => (await stores.chat.getConversation(wf, c.id)) !== null;
      expect(await Promise.all(mine.map(left))).toEqual([true, false, false, true]);
      expect(await stores.chat.listMessages(mine[1].id)).toEqual([]);
      // The app's bound counts every owner's.
      expect(await stores.chat.pruneConversations(wf, 'session:other', { perOwner: 10, perApp: 2 })).toBe(1);
      expect([await left(mine[0]), await left(mine[3]), await left(other)].filter(Boolean)).toHaveLength(2);
      expect(await left(other)).toBe(true);
    });

    it('an answer keeps its run, citations and feedback; the run finds its answer', async () => {
      const wf = await newWorkflow(stores);
      const c = await conversation(wf);
      const citations = [{ citation: '[1]', title: 'Doc', page: 2, text: 'passage', score: 0.5, documentId: 'd1' }];
      const [q, a] = await stores.chat.appendMessages(c.id, [
        { id: newId('msg'), role: 'user', content: 'q\u0000' },
        { id: newId('msg'), role: 'assistant', content: 'a', runId: 'run_x', citations },
      ]);
      expect(q.content).toBe('q\uFFFD');
      expect(a).toMatchObject({ role: 'assistant', runId: 'run_x', citations, feedback: null });
      expect(await stores.chat.setFeedback(q.id, { rating: 1, comment: null })).toBeNull(); // not an answer
      const rated = await stores.chat.setFeedback(a.id, { rating: -1, comment: 'meh' });
      expect(rated?.feedback).toMatchObject({ rating: -1, comment: 'meh', at: expect.any(String) });
      expect((await stores.chat.messageOfRun('run_x'))?.id).toBe(a.id);
      expect(await stores.chat.messageOfRun('run_none')).toBeNull();
      expect(await stores.chat.getMessage(wf, a.id)).toMatchObject({ id: a.id, owner: 'session:a' });
    });

    it("another workflow's conversations are not found; the chat app's secrets are read apart", async () => {
      const wf = await newWorkflow(stores);
      const other = await newWorkflow(stores);
      const c = await conversation(wf);
      const [m] = await stores.chat.appendMessages(c.id, [{ id: newId('msg'), role: 'user', content: 'x' }]);
      expect(await stores.chat.getConversation(other, c.id)).toBeNull();
      expect(await stores.chat.getMessage(other, m.id)).toBeNull();

      expect(await stores.chat.secretsOf(wf)).toBeNull();
      const chat = {
        enabled: true,
        title: 'T',
        welcome: null,
        suggestions: ['a'],
        access: 'code' as const,
        embedOrigins: ['https://shop.example'],
        historyMaxTokens: 2000,
        codeHash: 'ab'.repeat(32),
        sessionSecret: 'secret',
      };
      const updated = await stores.runs.setPublishSettings(wf, { chat });
      expect(updated?.chat).toEqual({
        enabled: true,
        title: 'T',
        welcome: null,
        suggestions: ['a'],
        access: 'code',
        embedOrigins: ['https://shop.example'],
        historyMaxTokens: 2000,
      });
      expect(await stores.chat.secretsOf(wf)).toEqual({ codeHash: 'ab'.repeat(32), sessionSecret: 'secret' });
    });
  });
}
