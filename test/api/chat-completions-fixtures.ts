/**
 * Fixtures shared by the chat-completions test files: a fresh app behind a real HTTP server, six published
 * workflows (each with its own API key) and an `openai` SDK client for a key. The workflows and the server are
 * live bindings, set in the beforeAll that useChatServer() registers.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect } from 'vitest';
import { getApp } from '@/lib/server/app';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { useFreshDataDir } from './api-helpers';

export let srv: RouteServer;

export async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export const node = (id: string, type: string, config: unknown, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});
const chain = (...ids: string[]) => ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id }));

/** Creates, publishes and mints a key; returns the slug and the key. */
async function publish(name: string, nodes: unknown[], edgeIds: string[]) {
  const wf = await json('POST', '/api/workflows', { name, graph: { nodes, edges: chain(...edgeIds) } });
  expect(wf.status, wf.text).toBe(201);
  const p = await json('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  const k = await json('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'chat' });
  expect(k.status, k.text).toBe(201);
  return { slug: p.body.slug as string, key: k.body.key as string };
}

const messageStart = (extra: unknown[] = []) =>
  node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }, ...extra] });

export type Published = { slug: string; key: string };

/** Answers "You said: <message>" through a template node. */
export let echo: Published;
/** The offline demo model through an LLM node: its tokens stream. */
export let llm: Published;
/** Takes the whole `messages` array as its input. */
export let whole: Published;
/** Fails at run time: the LLM node's API-key secret is not configured. */
export let failing: Published;
/** Needs a second required input the messages cannot fill. */
export let needsMore: Published;
/** Pauses on human input, so it cannot finish synchronously. */
export let paused: Published;

export const client = (key: string) =>
  new OpenAI({ baseURL: `${srv.baseUrl}/api/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });

/** Points the app at a fresh data directory and registers the hooks that start and stop it; call at the top. */
export function useChatServer() {
  useFreshDataDir('paiflow-chat-');
  process.env.SEED_EXAMPLE = '0';

  beforeAll(async () => {
    await getApp();
    srv = await startRouteServer();
    echo = await publish(
      'Chat echo',
      [
        messageStart(),
        node('t1', 'template', { template: 'You said: {{inputs.message}}', format: 'text' }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{t1.output.text}}' }] }, 400),
      ],
      ['start', 't1', 'end'],
    );
    llm = await publish(
      'Chat llm',
      [
        messageStart(),
        node(
          'reply',
          'llm',
          { model: 'demo', systemPrompt: 'Be brief.', userPrompt: '{{inputs.message}}', temperature: 0 },
          200,
        ),
        node(
          'end',
          'end',
          {
            outputs: [
              { name: 'model', value: '{{reply.output.model}}' },
              { name: 'answer', value: '{{reply.output.text}}' },
            ],
          },
          400,
        ),
      ],
      ['start', 'reply', 'end'],
    );
    whole = await publish(
      'Chat whole history',
      [
        node('start', 'start', { inputs: [{ name: 'messages', type: 'array', required: true }] }),
        node(
          't1',
          'template',
          {
            template:
              '{{inputs.messages[0].content}} | {{inputs.messages[1].role}}: {{inputs.messages[1].content}} | ' +
              'n={{inputs.messages[2].content}}',
            format: 'text',
          },
          200,
        ),
        node('end', 'end', { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] }, 400),
      ],
      ['start', 't1', 'end'],
    );
    // Fails at run time: the LLM node's API-key secret is not configured.
    failing = await publish(
      'Chat failing',
      [
        messageStart(),
        node(
          'reply',
          'llm',
          { userPrompt: '{{inputs.message}}', provider: { apiKeySecret: 'CHAT_TEST_MISSING_SECRET' } },
          200,
        ),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] }, 400),
      ],
      ['start', 'reply', 'end'],
    );
    needsMore = await publish(
      'Chat needs more',
      [
        node('start', 'start', {
          inputs: [
            { name: 'question', type: 'string', required: true },
            { name: 'language', type: 'string', required: true },
          ],
        }),
        node('t1', 'template', { template: '{{inputs.language}}: {{inputs.question}}', format: 'text' }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{t1.output.text}}' }] }, 400),
      ],
      ['start', 't1', 'end'],
    );
    paused = await publish(
      'Chat paused',
      [
        messageStart(),
        node('ask', 'human_input', { prompt: 'Approve {{inputs.message}}?', answerType: 'text' }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] }, 400),
      ],
      ['start', 'ask', 'end'],
    );
  });

  afterAll(async () => {
    await srv?.close();
    await (await getApp()).close();
  });
}
