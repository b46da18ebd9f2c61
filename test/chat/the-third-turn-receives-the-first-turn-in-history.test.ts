// Guarantees: a chat conversation is first-class. Each turn is a run of the published version; the conversation's
// earlier turns reach the workflow through the Start input `history` ([{ role, content }]) and an LLM node sends them
// before the message, so the third turn's model request holds the first turn; the run, its snapshots and its events
// keep the history as a reference to the conversation's messages, never a copy; the turns are stored and read back in
// order with GET …/conversations/:id/messages; `stream: false` answers the same final object as JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import {
  bearer,
  historyGraph,
  json,
  publishChatApp,
  sendStreaming,
  session,
  useChatAppServer,
  type ChatApp,
} from './chat-app-fixtures';

let fake: FakeOpenAi;
useChatAppServer('paiflow-chat-history-', async () => {
  fake = await startFakeOpenAi();
  process.env.OPENAI_API_KEY = 'test';
  process.env.OPENAI_BASE_URL = fake.baseURL;
});
afterAll(async () => {
  await fake?.close();
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});

let chat: ChatApp;
beforeAll(async () => {
  chat = await publishChatApp('Chat with history', historyGraph({ model: 'fake-chat' }), {
    enabled: true,
    access: 'public',
  });
});

describe('a three-turn conversation', () => {
  it('the third turn’s run receives the first turn in history, and the model gets it before the message', async () => {
    const token = await session(chat.slug);
    fake.requests.length = 0;
    const first = await sendStreaming(chat.slug, token, { message: 'My name is Ada and I like owls.' });
    expect(first.done).toMatchObject({ answer: 'echo: My name is Ada and I like owls.', citations: [] });
    const conversationId = first.done.conversationId;
    expect(first.events.filter((e) => e.event === 'token').length).toBeGreaterThan(0);
    expect(
      first.events
        .filter((e) => e.event === 'token')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe(first.done.answer);

    const second = await sendStreaming(chat.slug, token, { conversationId, message: 'What is the weather?' });
    expect(second.done.conversationId).toBe(conversationId);
    const third = await sendStreaming(chat.slug, token, { conversationId, message: 'What is my name?' });
    expect(third.done.conversationId).toBe(conversationId);

    // The third model request: the two earlier turns, then the message.
    expect(fake.requests).toHaveLength(3);
    const sent = fake.requests[2].messages.map((m: { role: string; content: string }) => [m.role, m.content]);
    expect(sent).toEqual([
      ['user', 'My name is Ada and I like owls.'],
      ['assistant', 'echo: My name is Ada and I like owls.'],
      ['user', 'What is the weather?'],
      ['assistant', 'echo: What is the weather?'],
      ['user', 'What is my name?'],
    ]);

    // The third run's inputs: the message, and the history as a reference to the conversation's first four messages.
    const run = await json('GET', `/api/runs/${third.done.runId}`);
    expect(run.body.inputs.message).toBe('What is my name?');
    const ref = { $ref: 'chat-history', conversationId, fromSeq: 1, toSeq: 4, as: 'list' };
    expect(run.body.inputs.history).toEqual(ref);
    // No snapshot or event of the run copies the earlier turns: each keeps the reference.
    const byNode = Object.fromEntries(run.body.nodes.map((n: { nodeId: string }) => [n.nodeId, n]));
    expect(byNode.start.output.history).toEqual(ref);
    expect(byNode.reply.input.history).toEqual(ref);
    const events = await json('GET', `/api/runs/${third.done.runId}/events`);
    for (const stored of [JSON.stringify(run.body), events.text])
      expect(stored).not.toContain('My name is Ada and I like owls.');

    // Stored: six messages in order, each answer with its run.
    const stored = await json(
      'GET',
      `/api/v1/chat/${chat.slug}/conversations/${conversationId}/messages`,
      undefined,
      bearer(token),
    );
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(stored.body.messages[5]).toMatchObject({ id: third.done.messageId, runId: third.done.runId });
  });

  it('stream: false answers { conversationId, messageId, answer, citations } as JSON; a key works too', async () => {
    const a = await json(
      'POST',
      `/api/v1/chat/${chat.slug}/messages`,
      { message: 'hello', stream: false },
      bearer(chat.key),
    );
    expect(a.status, a.text).toBe(200);
    expect(a.body).toEqual({
      conversationId: expect.any(String),
      messageId: expect.any(String),
      answer: 'echo: hello',
      citations: [],
      runId: expect.any(String),
    });
    const b = await json(
      'POST',
      `/api/v1/chat/${chat.slug}/messages`,
      { conversationId: a.body.conversationId, message: 'again', stream: false },
      bearer(chat.key),
    );
    expect(b.status, b.text).toBe(200);
    expect(fake.requests.at(-1).messages.map((m: { content: string }) => m.content)).toEqual([
      'hello',
      'echo: hello',
      'again',
    ]);
  });

  it('another caller cannot continue or read a conversation: it is not found', async () => {
    const mine = await session(chat.slug);
    const a = await json(
      'POST',
      `/api/v1/chat/${chat.slug}/messages`,
      { message: 'secret', stream: false },
      bearer(mine),
    );
    expect(a.status, a.text).toBe(200);
    const other = await session(chat.slug);
    const read = await json(
      'GET',
      `/api/v1/chat/${chat.slug}/conversations/${a.body.conversationId}/messages`,
      undefined,
      bearer(other),
    );
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    const write = await json(
      'POST',
      `/api/v1/chat/${chat.slug}/messages`,
      { conversationId: a.body.conversationId, message: 'me too', stream: false },
      bearer(chat.key),
    );
    expect(write.status).toBe(404);
  });

  it('a bad body is a 400 with a code and a path, never a 500', async () => {
    const token = await session(chat.slug);
    const empty = await json('POST', `/api/v1/chat/${chat.slug}/messages`, { message: '' }, bearer(token));
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ path: 'message' });
    const unknown = await json('POST', `/api/v1/chat/${chat.slug}/messages`, { message: 'x', extra: 1 }, bearer(token));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBeTruthy();
  });
});
