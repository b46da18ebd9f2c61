/**
 * Guarantee: a chat app cannot be used to fill the disk or the model bill. On the built server, 40 turns of 20,000
 * characters in one conversation grow the database by a bounded amount (the red team's 40 turns grew it by 191 MB,
 * each run storing a growing copy of the history): the conversation stores the history once and each run keeps a
 * reference to it, in its inputs and its snapshots. What reaches the model is the latest turns that fit the app's
 * token budget. A message over CHAT_MESSAGE_MAX_CHARS is 413, a visitor's conversations beyond
 * CHAT_MAX_CONVERSATIONS_PER_VISITOR push out the oldest, and sessions beyond CHAT_SESSIONS_PER_VISITOR_PER_HOUR from
 * one address are 429. On its own server (its own database), so that the other journeys do not count.
 */
import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient, type Client } from './support/client';
import { acceptance } from './support/context';
import { startServer, TEST_DATABASE_URL, type RunningServer } from './support/server';
import { createWorkflow, node } from './support/runs';

const { profile } = acceptance();

const TURNS = 40;
const MESSAGE_CHARS = 20_000;
/** What the 40 turns may add: their own text is 0.8 MB sent and about as much answered. */
const GROWTH_MAX_BYTES = 30 * 1024 * 1024;

let server: RunningServer;
let api: Client;
let slug: string;
let workflowId: string;

const graph = {
  nodes: [
    node('start', 'start', {
      inputs: [
        { name: 'message', type: 'string', required: true },
        { name: 'history', type: 'array', required: false, default: [] },
      ],
    }),
    node('reply', 'llm', { model: 'demo', userPrompt: '{{inputs.message}}', history: '{{inputs.history}}' }, 300),
    node('end', 'end', { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] }, 600),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'reply' },
    { id: 'e2', source: 'reply', target: 'end' },
  ],
};

async function sizeOfDir(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? await sizeOfDir(p) : (await stat(p).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** The deployment's stored bytes: the embedded data dir, or its PostgreSQL schema's tables, indexes and TOAST. */
async function storedBytes(): Promise<number> {
  if (profile === 'embedded') return sizeOfDir(server.state.dataDir);
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [server.state.schema],
    );
    return Number(r.rows[0].bytes);
  } finally {
    await client.end();
  }
}

/** A message of MESSAGE_CHARS that the database cannot compress (a repeated letter would shrink to nothing). */
const noise = () => randomBytes((MESSAGE_CHARS / 4) * 3).toString('base64');

const visitor = (token: string) => ({ authorization: `Bearer ${token}` });
async function session(): Promise<{ status: number; token: string; code?: string }> {
  const s = await api.post(`/api/v1/chat/${slug}/session`, {}, { authorization: '' });
  return { status: s.status, token: s.body?.token, code: s.body?.error?.code };
}
async function say(token: string, message: string, conversationId?: string) {
  return api.post(
    `/api/v1/chat/${slug}/messages`,
    { message, stream: false, ...(conversationId ? { conversationId } : {}) },
    visitor(token),
  );
}

beforeAll(async () => {
  server = await startServer({
    profile,
    env: {
      CHAT_MESSAGE_MAX_CHARS: String(MESSAGE_CHARS),
      CHAT_MAX_CONVERSATIONS_PER_VISITOR: '3',
      CHAT_SESSIONS_PER_VISITOR_PER_HOUR: '4',
      RATE_LIMIT_PER_MIN: '100000',
    },
  });
  api = await ownerClient(server.baseURL);
  workflowId = await createWorkflow(api, 'Bounded chat', graph);
  slug = `bounded-chat-${Date.now()}`;
  await api.expectStatus(api.post(`/api/workflows/${workflowId}/publish`, { slug }), 201);
  await api.expectStatus(
    api.patch(`/api/workflows/${workflowId}/publish`, { chat: { enabled: true, access: 'public' } }),
    200,
  );
}, 240_000);

afterAll(async () => {
  await server?.kill();
});

describe('a chat app on the built server', () => {
  let token: string;

  it(`stores ${TURNS} long turns in a bounded space, the history once`, async () => {
    const s = await session();
    expect(s.status).toBe(201);
    token = s.token;
    const first = await say(token, noise());
    expect(first.status, first.text.slice(0, 500)).toBe(200);
    const conversationId = first.body.conversationId as string;
    const before = await storedBytes();
    let last = first.body;
    for (let i = 1; i < TURNS; i++) {
      const turn = await say(token, noise(), conversationId);
      expect(turn.status, turn.text.slice(0, 500)).toBe(200);
      last = turn.body;
    }
    const grown = (await storedBytes()) - before;
    console.log(`[chat growth] ${profile}: ${TURNS - 1} turns of ${MESSAGE_CHARS} chars grew it by ${grown} bytes`);
    expect(grown).toBeLessThan(GROWTH_MAX_BYTES);

    // The last run keeps the history by reference: in its inputs and in the LLM node's snapshot.
    const run = await api.expectStatus(api.get(`/api/runs/${last.runId}`), 200);
    expect(run.inputs.history).toMatchObject({ $ref: 'chat-history', conversationId });
    const reply = run.nodes.find((n: { nodeId: string }) => n.nodeId === 'reply');
    expect(reply.input.history).toEqual(run.inputs.history);
    // The default budget (4,000 tokens) holds none of these 5,000-token messages but the answers: no 78 messages.
    expect(run.inputs.history.toSeq - run.inputs.history.fromSeq).toBeLessThan(10);
  });

  it('sends only the turns that fit the app’s token budget', async () => {
    await api.expectStatus(
      api.patch(`/api/workflows/${workflowId}/publish`, {
        chat: { enabled: true, access: 'public', historyMaxTokens: 100_000 },
      }),
      200,
    );
    const first = await say(token, 'short one');
    const conversationId = first.body.conversationId as string;
    for (const m of ['short two', 'short three']) expect((await say(token, m, conversationId)).status).toBe(200);
    const four = await say(token, 'four', conversationId);
    expect(four.body.answer).toContain('Earlier you said: "short one"');
    const wide = await api.expectStatus(api.get(`/api/runs/${four.body.runId}`), 200);
    expect(wide.inputs.history).toMatchObject({ fromSeq: 1, toSeq: 6 });
    // No budget: the model gets the message alone, and the run no history.
    await api.expectStatus(
      api.patch(`/api/workflows/${workflowId}/publish`, {
        chat: { enabled: true, access: 'public', historyMaxTokens: 0 },
      }),
      200,
    );
    const none = await say(token, 'five', conversationId);
    expect(none.body.answer).not.toContain('Earlier you said');
    const narrow = await api.expectStatus(api.get(`/api/runs/${none.body.runId}`), 200);
    expect(narrow.inputs.history).toEqual([]);
  });

  it('refuses a message over the limit with 413, before anything is stored', async () => {
    const long = await say(token, 'y'.repeat(MESSAGE_CHARS + 1));
    expect({ status: long.status, code: long.body.error?.code, path: long.body.error?.path }).toEqual({
      status: 413,
      code: 'CHAT_MESSAGE_TOO_LONG',
      path: 'message',
    });
  });

  it('keeps a visitor’s newest conversations and refuses sessions beyond the hourly bound', async () => {
    const s = await session();
    expect(s.status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await say(s.token, `conversation ${i}`)).body.conversationId);
    const readable = async (id: string) =>
      (await api.get(`/api/v1/chat/${slug}/conversations/${id}/messages`, visitor(s.token))).status;
    expect(await Promise.all(ids.map(readable))).toEqual([404, 200, 200, 200]);
    // Two sessions were opened from this address already; the bound is four an hour.
    expect((await session()).status).toBe(201);
    expect((await session()).status).toBe(201);
    const refused = await session();
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 429, code: 'TOO_MANY_CHAT_SESSIONS' });
  });
});
