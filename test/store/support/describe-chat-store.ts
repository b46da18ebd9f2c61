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
        codeHash: 'ab'.repeat(32),
        sessionSecret: 'secret',
      };
      const updated = await stores.runs.setPublishSettings(wf, { chat });
      expect(updated?.chat).toEqual({ enabled: true, title: 'T', welcome: null, suggestions: ['a'], access: 'code' });
      expect(await stores.chat.secretsOf(wf)).toEqual({ codeHash: 'ab'.repeat(32), sessionSecret: 'secret' });
    });
  });
}
