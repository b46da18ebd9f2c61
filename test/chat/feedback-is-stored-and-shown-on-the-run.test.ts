// Guarantees: 👍 / 👎 with an optional comment on an answer (POST /api/v1/chat/:slug/messages/:messageId/feedback) is
// stored with the message, comes back with the conversation's messages, replaces an earlier one, and is shown on the
// run that answered (GET /api/runs/:runId/chat, which the run's view reads). Only the conversation's owner may give
// it, and only on an answer. The offline demo model's third answer names the first turn (the history reached it).
import { beforeAll, describe, expect, it } from 'vitest';
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

useChatAppServer('paiflow-chat-feedback-');

let chat: ChatApp;
beforeAll(async () => {
  chat = await publishChatApp('Feedback chat', historyGraph(), { enabled: true, access: 'public' });
});

describe('feedback on answers', () => {
  it('feedback is stored and shown on the run; the demo model’s third answer uses the first turn', async () => {
    const token = await session(chat.slug);
    const one = await sendStreaming(chat.slug, token, { message: 'I am planning a trip to Lisbon' });
    const conversationId = one.done.conversationId;
    await sendStreaming(chat.slug, token, { conversationId, message: 'Any tips for food?' });
    const three = await sendStreaming(chat.slug, token, { conversationId, message: 'Where was I going?' });
    expect(three.done.answer).toContain('Earlier you said: "I am planning a trip to Lisbon"');

    const url = `/api/v1/chat/${chat.slug}/messages/${three.done.messageId}/feedback`;
    const up = await json('POST', url, { rating: 'down', comment: 'Too vague' }, bearer(token));
    expect(up.status, up.text).toBe(200);
    expect(up.body.feedback).toMatchObject({ rating: -1, comment: 'Too vague' });
    const again = await json('POST', url, { rating: 'up', comment: 'Actually fine' }, bearer(token));
    expect(again.body.feedback).toMatchObject({ rating: 1, comment: 'Actually fine' });

    const list = await json(
      'GET',
      `/api/v1/chat/${chat.slug}/conversations/${conversationId}/messages`,
      undefined,
      bearer(token),
    );
    expect(list.body.messages.at(-1)).toMatchObject({
      id: three.done.messageId,
      feedback: { rating: 1, comment: 'Actually fine' },
    });

    const onRun = await json('GET', `/api/runs/${three.done.runId}/chat`);
    expect(onRun.status, onRun.text).toBe(200);
    expect(onRun.body.chat).toMatchObject({
      conversationId,
      messageId: three.done.messageId,
      feedback: { rating: 1, comment: 'Actually fine' },
    });
    const plainRun = await json('GET', `/api/runs/${one.done.runId}/chat`);
    expect(plainRun.body.chat.feedback).toBeNull();
  });

  it('only the owner may give feedback, only on an answer, and the body is checked', async () => {
    const token = await session(chat.slug);
    const a = await json('POST', `/api/v1/chat/${chat.slug}/messages`, { message: 'hi', stream: false }, bearer(token));
    const url = `/api/v1/chat/${chat.slug}/messages/${a.body.messageId}/feedback`;
    const stranger = await json('POST', url, { rating: 'up' }, bearer(await session(chat.slug)));
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('CHAT_MESSAGE_NOT_FOUND');
    const msgs = await json(
      'GET',
      `/api/v1/chat/${chat.slug}/conversations/${a.body.conversationId}/messages`,
      undefined,
      bearer(token),
    );
    const userMessage = msgs.body.messages[0];
    expect(userMessage.role).toBe('user');
    const onQuestion = await json(
      'POST',
      `/api/v1/chat/${chat.slug}/messages/${userMessage.id}/feedback`,
      { rating: 'up' },
      bearer(token),
    );
    expect(onQuestion.status).toBe(404);
    const bad = await json('POST', url, { rating: 'meh' }, bearer(token));
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe('rating');
  });
});
