// Guarantees: the gallery's "Chat assistant" template, created with the workspace's one knowledge base, published and
// put on a chat app, answers a chat turn with the knowledge node's citations ({ citation, title, page, text, score })
// in the `done` event and in the stored conversation, and its third turn still hears the first (history reaches its
// LLM node on the offline demo model).
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { call } from '../api/api-helpers';
import { createKnowledgeBase, waitSettled } from '../knowledge/support/upload-helpers';
import { bearer, json, sendStreaming, session, useChatAppServer } from './chat-app-fixtures';

useChatAppServer('paiflow-chat-template-');

let slug = '';
beforeAll(async () => {
  const kbId = await createKnowledgeBase('Handbook');
  const up = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
    params: { id: kbId },
    body: {
      title: 'Returns policy',
      text:
        'Returns and refunds. Customers may return any item within 30 days of delivery for a full refund. ' +
        'Refunds are paid to the original payment method within 5 business days.',
    },
  });
  expect(up.status, up.text).toBe(202);
  expect((await waitSettled(kbId)).map((d) => d.status)).toEqual(['indexed']);
  const wf = await json('POST', '/api/workflows', { name: 'Helpdesk', templateId: 'chat-assistant' });
  expect(wf.status, wf.text).toBe(201);
  const p = await json('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  slug = p.body.slug;
  const s = await json('PATCH', `/api/workflows/${wf.body.id}/publish`, { chat: { enabled: true, access: 'public' } });
  expect(s.status, s.text).toBe(200);
}, 180_000);

describe('the Chat assistant template', () => {
  it('answers with the knowledge node’s citations, and its third turn uses the first', async () => {
    const token = await session(slug);
    const one = await sendStreaming(slug, token, { message: 'How long do customers have to return an item?' });
    expect(one.done.citations.length).toBeGreaterThan(0);
    expect(one.done.citations[0]).toMatchObject({
      citation: '[1]',
      title: 'Returns policy',
      page: null,
      text: expect.stringContaining('30 days'),
      score: expect.any(Number),
    });
    const conversationId = one.done.conversationId;
    await sendStreaming(slug, token, { conversationId, message: 'And how are refunds paid?' });
    const three = await sendStreaming(slug, token, { conversationId, message: 'Thanks, anything else?' });
    expect(three.done.answer).toContain('Earlier you said: "How long do customers have to return an item?"');

    const stored = await json(
      'GET',
      `/api/v1/chat/${slug}/conversations/${conversationId}/messages`,
      undefined,
      bearer(token),
    );
    expect(stored.body.messages[1].citations[0]).toMatchObject({ citation: '[1]', title: 'Returns policy' });
  }, 120_000);
});
