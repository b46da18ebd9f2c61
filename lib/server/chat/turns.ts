/**
 * One turn of a chat conversation: POST /api/v1/chat/:slug/messages. The turn is an ordinary run of the workflow's
 * published version (like the chat-completions facade, whose input mapping, answer picking and token streaming it
 * reuses): the message goes to the Start input the facade would give it (`message`, `query`, `question` …), and the
 * conversation's earlier turns go to the input `history` as `[{ role, content }]` (a declared string input gets them
 * as JSON text; an undeclared one is passed through). Only the latest turns that fit the app's token budget are sent,
 * and the run keeps them by reference to the conversation (history.ts), not as a copy.
 *
 * The user's message is stored before the run starts; the answer (with the run's id and the knowledge nodes'
 * citations) when the run succeeds — by a task that does not depend on the request, so a reader who closes the page
 * mid-answer still finds it in the conversation. A failed run stores no answer (the next turn's history skips it).
 *
 * Bounds (limits.ts): a message over CHAT_MESSAGE_MAX_CHARS is 413; a conversation holds at most
 * CHAT_MAX_MESSAGES_PER_CONVERSATION messages (then 409 CONVERSATION_FULL); a new conversation deletes the oldest of
 * its owner beyond CHAT_MAX_CONVERSATIONS_PER_VISITOR and of the app beyond CHAT_MAX_CONVERSATIONS_PER_APP.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { startConfigSchema } from '@/engine/nodes/start';
import type { ChatCitation, ChatConversationRecord, ChatMessageRecord } from '@/engine/store/chat';
import type { RunRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { failedError, pendingError, TERMINAL } from '../chat-completions/answers';
import { contentFromOutputs, inputsFromMessages, streamingSources } from '../chat-completions/mapping';
import { streamRunTokens } from '../chat-completions/stream';
import { runHeaders, runUrls, startPublishedRun, versionToRun } from '../publishing/published-runs';
import { v1Settings } from '../publishing/v1-settings';
import { waitForRunToSettle } from '../runs/run-waiter';
import type { ChatWorkflow } from './access';
import { historyRef, historyValue, historyWindow } from './history';
import { chatLimits } from './limits';

export const chatMessageBodySchema = z.strictObject({
  conversationId: z.string().min(1).max(100).optional(),
  message: z
    .string({ error: 'message (the text to send) is required' })
    .trim()
    .min(1, 'message must not be empty')
    // The hard ceiling; the configured one (CHAT_MESSAGE_MAX_CHARS) is checked in sendMessage.
    .max(100_000, 'a message has at most 100000 characters'),
  stream: z.boolean().default(true),
});
export type ChatMessageBody = z.infer<typeof chatMessageBodySchema>;

/** How long an answer is waited for after its reader went away (the run goes on; its answer is still stored). */
const ANSWER_MAX_MS = 3_600_000;

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;

/** The conversation `id` of this workflow and owner, or 404 (another owner's is "not found" too). */
export async function conversationOf(app: App, wf: ChatWorkflow, owner: string, id: string) {
  const c = await app.stores.chat.getConversation(wf.id, id);
  if (!c || c.owner !== owner)
    throw new PaiError('CONVERSATION_NOT_FOUND', `conversation ${id} not found`, { path: 'conversationId' });
  return c;
}

export function presentMessage(m: ChatMessageRecord) {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    citations: m.citations,
    runId: m.runId,
    feedback: m.feedback,
    createdAt: m.createdAt,
  };
}

/** The knowledge nodes' hits of a run, as the answer's citations (first of each number wins). */
async function citationsOf(app: App, runId: string): Promise<ChatCitation[]> {
  const out: ChatCitation[] = [];
  for (const n of await app.store.getNodeRuns(runId).catch(() => [])) {
    if (n.type !== 'knowledge' || n.status !== 'succeeded') continue;
    const hits = (n.output as { hits?: unknown } | null)?.hits;
    if (!Array.isArray(hits)) continue;
    for (const h of hits as Array<Record<string, unknown>>) {
      const citation = String(h.citation ?? '');
      if (!citation || out.some((c) => c.citation === citation)) continue;
      out.push({
        citation,
        title: String(h.title ?? ''),
        page: typeof h.page === 'number' ? h.page : null,
        text: String(h.text ?? ''),
        score: typeof h.score === 'number' ? h.score : 0,
        documentId: typeof h.documentId === 'string' ? h.documentId : null,
      });
    }
  }
  return out;
}

interface Answer {
  conversationId: string;
  messageId: string;
  answer: string;
  citations: ChatCitation[];
  runId: string;
}

/** Waits for the run and stores its answer; resolves with it, or with the run as it ended when it did not succeed. */
async function recordAnswer(
  app: App,
  conversation: ChatConversationRecord,
  run: RunRecord,
): Promise<{ answer: Answer } | { run: RunRecord }> {
  const done = (await waitForRunToSettle(app, run.id, { timeoutMs: ANSWER_MAX_MS, untilEnded: true })) ?? run;
  if (done.status !== 'succeeded') return { run: done };
  const citations = await citationsOf(app, done.id);
  const answer = contentFromOutputs(done.outputs);
  const [m] = await app.stores.chat.appendMessages(conversation.id, [
    { id: newId('msg'), role: 'assistant', content: answer, runId: done.id, citations },
  ]);
  return { answer: { conversationId: conversation.id, messageId: m.id, answer, citations, runId: done.id } };
}

/** A new conversation of `owner`; the oldest beyond the visitor's and the app's bounds are deleted with it. */
async function newConversation(
  app: App,
  wf: ChatWorkflow,
  owner: string,
  message: string,
  limits: ReturnType<typeof chatLimits>,
) {
  const c = await app.stores.chat.createConversation({
    id: newId('conv'),
    workflowId: wf.id,
    owner,
    title: message.slice(0, 80),
  });
  await app.stores.chat.pruneConversations(wf.id, owner, {
    perOwner: limits.conversationsPerVisitor,
    perApp: limits.conversationsPerApp,
  });
  return c;
}

export async function sendMessage(
  app: App,
  req: Request,
  origin: string,
  wf: ChatWorkflow,
  caller: { owner: string; apiKeyId: string | null },
  body: ChatMessageBody,
): Promise<Response> {
  const limits = chatLimits(wf.chat);
  if (body.message.length > limits.messageMaxChars)
    throw new PaiError(
      'CHAT_MESSAGE_TOO_LONG',
      `a message has at most ${limits.messageMaxChars} characters (CHAT_MESSAGE_MAX_CHARS); ` +
        `this one has ${body.message.length}`,
      { path: 'message', details: { limit: limits.messageMaxChars } },
    );
  const version = await versionToRun(app, wf);
  const conversation = body.conversationId
    ? await conversationOf(app, wf, caller.owner, body.conversationId)
    : await newConversation(app, wf, caller.owner, body.message, limits);
  const earlier = body.conversationId ? await app.stores.chat.listMessages(conversation.id) : [];
  // A turn adds two messages: the user's and the answer.
  if (earlier.length + 2 > limits.messagesPerConversation)
    throw new PaiError(
      'CONVERSATION_FULL',
      `this conversation has ${earlier.length} messages, the most one may hold (CHAT_MAX_MESSAGES_PER_CONVERSATION); ` +
        'start a new conversation',
      { path: 'conversationId', details: { limit: limits.messagesPerConversation } },
    );
  const window = historyWindow(earlier, limits.historyMaxTokens);

  const start = version.graph.nodes.find((n) => n.type === 'start');
  const decls = startConfigSchema.safeParse(start?.data?.config ?? {});
  const declared = decls.success ? decls.data.inputs : [];
  const sent = window.map((m) => ({ role: m.role, content: m.content }));
  const messages = [...sent, { role: 'user' as const, content: body.message }];
  const inputs = inputsFromMessages(declared, messages, messages);
  const as = declared.find((d) => d.name === 'history')?.type === 'string' ? 'json' : 'list';
  inputs.history = historyValue(window, as);
  const ref = historyRef(conversation.id, window, as);

  const { run } = await startPublishedRun(app, wf, version, {
    inputs,
    ...(ref ? { refs: { history: ref } } : {}),
    idempotencyKey: null,
    apiKeyId: caller.apiKeyId,
    // The run belongs to the conversation: it starts with the conversation's variables and stores what it writes.
    trigger: { kind: 'chat', id: conversation.id },
  });
  await app.stores.chat.appendMessages(conversation.id, [
    { id: newId('msg'), role: 'user', content: body.message, runId: run.id },
  ]);
  const recorded = recordAnswer(app, conversation, run);
  recorded.catch((e) => console.error('[paiflow] chat answer not stored', run.id, (e as Error)?.message));

  const urls = runUrls(origin, run.id);
  const headers = { ...runHeaders(run.id, urls.statusUrl, true), 'x-conversation-id': conversation.id };
  const data = (event: string, v: unknown) => `event: ${event}\ndata: ${JSON.stringify(v)}\n\n`;

  if (body.stream)
    return streamRunTokens(app, req, run, streamingSources(version.graph), urls, headers, {
      opening: () => [data('conversation', { conversationId: conversation.id, runId: run.id })],
      delta: (d) => data('token', { delta: d }),
      async succeeded(_done, streamed) {
        const r = await recorded;
        if (!('answer' in r)) return [data('error', { error: failedError(r.run) })];
        const rest = r.answer.answer.startsWith(streamed) ? r.answer.answer.slice(streamed.length) : '';
        return [...(rest ? [data('token', { delta: rest })] : []), data('done', r.answer)];
      },
      error: (error) => data('error', { error }),
    });

  const done =
    (await waitForRunToSettle(app, run.id, { timeoutMs: v1Settings(app).syncTimeoutMs, signal: req.signal })) ?? run;
  if (!TERMINAL.has(done.status))
    return Response.json(
      { error: pendingError(done, urls), conversationId: conversation.id, runId: done.id, ...urls },
      { status: 202, headers },
    );
  const r = await recorded;
  if (!('answer' in r))
    return Response.json({ error: failedError(r.run), conversationId: conversation.id }, { status: 422, headers });
  return Response.json(r.answer, { headers });
}

export const feedbackBodySchema = z.strictObject({
  rating: z.enum(['up', 'down']),
  comment: z.string().trim().max(2000, 'a comment has at most 2000 characters').optional(),
});

/** Records 👍 / 👎 (and a comment) on an answer of the caller's conversation. */
export async function recordFeedback(
  app: App,
  wf: ChatWorkflow,
  owner: string,
  messageId: string,
  body: z.infer<typeof feedbackBodySchema>,
) {
  const m = await app.stores.chat.getMessage(wf.id, messageId);
  if (!m || m.owner !== owner || m.role !== 'assistant')
    throw new PaiError('CHAT_MESSAGE_NOT_FOUND', `no answer ${messageId} in this chat`);
  const updated = await app.stores.chat.setFeedback(m.id, {
    rating: body.rating === 'up' ? 1 : -1,
    comment: body.comment ? body.comment : null,
  });
  if (!updated) throw new PaiError('CHAT_MESSAGE_NOT_FOUND', `no answer ${messageId} in this chat`);
  return presentMessage(updated);
}
