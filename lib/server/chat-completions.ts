/**
 * OpenAI-compatible facade for published workflows: POST /api/v1/chat/completions, where `model` is the workflow's
 * slug and the Bearer token is one of its API keys, so any OpenAI client (SDKs, tools with a "base URL" setting) can
 * call a workflow. Each request is an ordinary run of the workflow's current published version (like
 * POST /api/v1/workflows/:slug/run in sync or stream mode), with the same concurrency cap and Idempotency-Key rules.
 *
 * Order of checks: the body must be JSON with a `model` (413 / 415 / 400) — the slug lives in the body — then the
 * key (401) and its rate limit (429), the workflow (404 / 403 for another workflow's key), then the rest of the body
 * (400 with a path: at least one message, at least one of role "user"). Unknown OpenAI fields (temperature,
 * max_tokens, tools, …) are accepted and ignored.
 *
 * Messages → run inputs (the start node's declared inputs):
 *   - an input named `messages` receives the whole `messages` array as sent (as JSON text when it is declared a string);
 *   - the text of the LAST user message (a string, or its `{type:'text'}` parts joined by "\n") goes to the first declared
 *     input named `message`, `query`, `question`, `input`, `prompt`, `text` (in that order of preference), else to the
 *     first required string input, else to the first string input (never to `messages`), else nowhere;
 *   - any other required input is missing → 400 MISSING_INPUT (path `inputs.<name>`), as on the run endpoint.
 *
 * Run outputs → assistant content: the end output named `answer`, `text`, `output`, `content`, `reply` or `message`
 * (the first one present, i.e. neither null nor missing; non-strings as JSON), else the first string-valued output,
 * else JSON.stringify(outputs).
 *
 * Answers:
 *   - succeeded → 200 `chat.completion` (id `chatcmpl-<runId>`, usage summed from the run's LLM node snapshots);
 *   - failed / cancelled / interrupted → 422 RUN_FAILED (the run's error and id in the message);
 *   - still running after SYNC_TIMEOUT_MS, or paused on human input → 202 with `{ error: { code: 'RUN_PENDING', statusUrl,
 *     … } }` and `location` so the client can poll the run (never 504);
 *   - errors keep PaiFlow's `{ error: { code, message, path? } }` and add OpenAI's `type` and `param`.
 * `stream: true` → SSE of `chat.completion.chunk`s: a role chunk, then content deltas forwarded live from the
 * `node.token` events of the node the chosen end output is (exactly) `{{<node>.output.text}}` of — with a fallback chain,
 * the first of its nodes that streams — then whatever of the final content was not streamed (all of it when nothing
 * streamed, e.g. a template node; nothing when the tokens are not a prefix of it, e.g. a retried node or an agent that
 * spoke before calling a tool), then a `finish_reason: 'stop'` chunk with usage, then `data: [DONE]`. A run that
 * fails (or is still pending) ends the stream with `data: {"error":{…}}` instead. A client that goes away stops the
 * stream, not the run (poll the `location` / x-run-id).
 */
import { z } from 'zod';
import type { TraceEvent } from '@/engine/events/types';
import type { Graph } from '@/engine/graph/schema';
import { endConfigSchema } from '@/engine/nodes/end.node';
import { startConfigSchema, type StartConfig } from '@/engine/nodes/start.node';
import type { PublishedWorkflow } from '@/engine/store/prisma/prisma-store';
import type { RunRecord } from '@/engine/store/types';
import { findRefs } from '@/engine/template/resolve';
import { readJson } from '@/lib/http/body';
import { errorResponse, toPaiError } from '@/lib/http/errors';
import { authorizeForSlug } from './api-keys';
import { getApp, type App } from './app';
import { checkSameInputs, idempotencyKeyOf, runHeaders, runUrls, startRun, versionToRun } from './published-runs';
import { SSE_HEADERS } from './sse';
import { waitForRunToSettle } from './run-waiter';
import { originOf } from './v1-http';
import { v1Settings } from './v1-settings';

export const MESSAGE_INPUT_NAMES = ['message', 'query', 'question', 'input', 'prompt', 'text'] as const;
export const CONTENT_OUTPUT_NAMES = ['answer', 'text', 'output', 'content', 'reply', 'message'] as const;

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
/** How long a stream follows a run before it answers RUN_PENDING (tokens and keep-alives flow meanwhile). */
const STREAM_MAX_MS = 3_600_000;
const KEEP_ALIVE_MS = 15_000;

// ---------------------------------------------------------------------------------------------------------------
// Body

const contentPart = z
  .object({ type: z.string().min(1), text: z.string().optional() })
  .loose()
  .refine((p) => p.type !== 'text' || typeof p.text === 'string', {
    message: 'a text part needs a "text" string',
    path: ['text'],
  });

const chatMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
    content: z
      .union([z.string(), z.array(contentPart)])
      .nullable()
      .optional(),
  })
  .loose();

/** Read first: the slug is in the body, and the key is checked against that workflow before the rest is validated. */
const modelOnlySchema = z
  .object({
    model: z
      .string({ error: 'model (the workflow slug) is required' })
      .min(1, 'model (the workflow slug) is required')
      .max(200),
  })
  .loose();

export const chatBodySchema = z
  .object({
    model: z.string().min(1).max(200),
    messages: z
      .array(chatMessage, { error: 'messages must be an array of messages' })
      .min(1, 'messages must contain at least one message')
      .max(10_000),
    stream: z.boolean().nullable().optional(),
    user: z.string().optional(),
  })
  .loose()
  .superRefine((b, ctx) => {
    b.messages.forEach((m, i) => {
      if (m.role !== 'assistant' && (m.content === undefined || m.content === null)) {
        ctx.addIssue({
          code: 'custom',
          message: `a ${m.role} message needs content`,
          path: ['messages', i, 'content'],
        });
      }
    });
    if (!b.messages.some((m) => m.role === 'user'))
      ctx.addIssue({
        code: 'custom',
        message: 'messages must contain at least one message with role "user"',
        path: ['messages'],
      });
  });
export type ChatBody = z.infer<typeof chatBodySchema>;
type ChatMessage = ChatBody['messages'][number];

// ---------------------------------------------------------------------------------------------------------------
// Mapping

/** A message's text: the string, or its text parts joined by newlines (other parts, e.g. images, are ignored). */
export function messageText(m: Pick<ChatMessage, 'content'>): string {
  if (typeof m.content === 'string') return m.content;
  if (!Array.isArray(m.content)) return '';
  return m.content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** The run inputs for `messages` (see the top of this module). `raw` is the messages array exactly as sent. */
export function inputsFromMessages(
  decls: StartConfig['inputs'],
  messages: ChatMessage[],
  raw: unknown,
): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const whole = decls.find((d) => d.name === 'messages');
  if (whole) inputs.messages = whole.type === 'string' ? JSON.stringify(raw) : raw;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const candidates = decls.filter((d) => d.name !== 'messages');
  const target =
    MESSAGE_INPUT_NAMES.map((n) => candidates.find((d) => d.name === n)).find(Boolean) ??
    candidates.find((d) => d.type === 'string' && d.required) ??
    candidates.find((d) => d.type === 'string');
  if (target && lastUser) inputs[target.name] = messageText(lastUser);
  return inputs;
}

const present = (v: unknown) => v !== undefined && v !== null;

/** The assistant's content from the run's outputs (see the top of this module). */
export function contentFromOutputs(outputs: Record<string, unknown> | null | undefined): string {
  const o = outputs ?? {};
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  for (const name of CONTENT_OUTPUT_NAMES) {
    const v = own(name);
    if (present(v)) return typeof v === 'string' ? v : JSON.stringify(v);
  }
  const firstString = Object.values(o).find((v) => typeof v === 'string');
  return typeof firstString === 'string' ? firstString : JSON.stringify(o);
}

/**
 * The nodes whose live tokens make up the content: for each end node, the output the content will come from (by the
 * same name preference, else its first output) when its template is exactly `{{node.output.text}}` or a fallback chain
 * of those. Any other template (text around the reference, a whole object …) would not equal the joined tokens, so its
 * content is sent in one piece at the end.
 */
export function streamingSources(graph: Graph): string[] {
  const ids: string[] = [];
  for (const node of graph.nodes) {
    if (node.type !== 'end') continue;
    const cfg = endConfigSchema.safeParse(node.data?.config ?? {});
    if (!cfg.success || !cfg.data.outputs.length) continue;
    const outs = cfg.data.outputs;
    const chosen = CONTENT_OUTPUT_NAMES.map((n) => outs.find((o) => o.name === n)).find(Boolean) ?? outs[0];
    const refs = findRefs(chosen.value);
    if (refs.length !== 1 || refs[0].start !== 0 || refs[0].end !== chosen.value.length) continue;
    for (const alt of refs[0].alternatives) {
      const p = alt.path;
      if (
        p &&
        p.length === 3 &&
        p[0] !== 'inputs' &&
        p[1] === 'output' &&
        p[2] === 'text' &&
        typeof p[0] === 'string' &&
        !ids.includes(p[0])
      )
        ids.push(p[0]);
    }
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** OpenAI's error `type` for a PaiFlow error, so SDKs show a proper error. */
export function openAiErrorType(status: number, code: string): string {
  if (code === 'RUN_FAILED') return 'workflow_error';
  if (code === 'RUN_PENDING') return 'workflow_pending';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorJson(
  status: number,
  code: string,
  message: string,
  opts: { path?: string; extra?: Record<string, unknown> } = {},
) {
  return {
    code,
    message,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    type: openAiErrorType(status, code),
    param: opts.path ?? null,
    ...opts.extra,
  };
}

function errorAnswer(e: unknown, req: Request): Response {
  const pe = toPaiError(e);
  if (!pe) {
    console.error('[paiflow] unhandled error in', req.method, new URL(req.url).pathname, (e as Error)?.message);
    return Response.json({ error: errorJson(500, 'INTERNAL', 'internal error; see the server log') }, { status: 500 });
  }
  const headers = (pe.details as { headers?: Record<string, string> } | undefined)?.headers;
  return errorResponse(pe, headers, { type: openAiErrorType(pe.status, pe.code), param: pe.path ?? null });
}

function failedError(run: RunRecord) {
  const why =
    run.status === 'failed'
      ? `failed: ${run.error?.message ?? 'unknown error'}`
      : `ended ${run.status}${run.error?.message ? `: ${run.error.message}` : ''}`;
  return errorJson(422, 'RUN_FAILED', `run ${run.id} ${why}`, {
    extra: { runId: run.id, status: run.status, ...(run.error ? { runError: run.error } : {}) },
  });
}

function pendingError(run: RunRecord, urls: { statusUrl: string; eventsUrl: string }) {
  const what = run.status === 'waiting' ? 'is waiting for human input' : `is still ${run.status}`;
  return errorJson(202, 'RUN_PENDING', `run ${run.id} ${what}; poll statusUrl for its outcome`, {
    extra: { runId: run.id, status: run.status, ...urls },
  });
}

/** Token usage summed over the run's node snapshots (LLM and agent nodes record it); zeros when none did. */
async function usageOf(app: App, runId: string) {
  let prompt = 0;
  let completion = 0;
  for (const n of await app.store.getNodeRuns(runId).catch(() => [])) {
    prompt += Number(n.usage?.inputTokens) || 0;
    completion += Number(n.usage?.outputTokens) || 0;
  }
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const createdOf = (run: RunRecord) => Math.floor((Date.parse(run.createdAt) || Date.now()) / 1000);

// ---------------------------------------------------------------------------------------------------------------
// The handler

export async function chatCompletions(req: Request): Promise<Response> {
  try {
    return await answer(req);
  } catch (e) {
    return errorAnswer(e, req);
  }
}

async function answer(req: Request): Promise<Response> {
  const app = await getApp();
  const raw = await readJson(req, modelOnlySchema, { limit: app.config.maxBodyBytes });
  const { key, workflow: wf } = await authorizeForSlug(app, req, raw.model);
  const body = chatBodySchema.parse(raw); // ZodError → 400 with a path
  const idempotencyKey = idempotencyKeyOf(req);
  const version = await versionToRun(app, wf);
  const start = version.graph.nodes.find((n) => n.type === 'start');
  const decls = startConfigSchema.safeParse(start?.data?.config ?? {});
  const inputs = inputsFromMessages(
    decls.success ? decls.data.inputs : [],
    body.messages,
    (raw as { messages?: unknown }).messages,
  );

  const { run, created } = await startRun(
    app,
    wf,
    version,
    key,
    { inputs, mode: body.stream ? 'stream' : 'sync' },
    idempotencyKey,
  );
  if (!created) checkSameInputs(run, inputs);
  const urls = runUrls(originOf(req), run.id);
  const headers = runHeaders(run.id, urls.statusUrl, created);

  if (body.stream) return streamAnswer(app, req, wf, run, streamingSources(version.graph), urls, headers);

  const done =
    (await waitForRunToSettle(app, run.id, { timeoutMs: v1Settings(app).syncTimeoutMs, signal: req.signal })) ?? run;
  if (!TERMINAL.has(done.status))
    return Response.json(
      { error: pendingError(done, urls), runId: done.id, status: done.status, ...urls },
      { status: 202, headers },
    );
  if (done.status !== 'succeeded') return Response.json({ error: failedError(done) }, { status: 422, headers });
  return Response.json(
    {
      id: `chatcmpl-${done.id}`,
      object: 'chat.completion',
      created: createdOf(done),
      model: wf.slug,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: contentFromOutputs(done.outputs) },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: await usageOf(app, done.id),
    },
    { headers },
  );
}

function streamAnswer(
  app: App,
  req: Request,
  wf: PublishedWorkflow,
  run: RunRecord,
  sources: string[],
  urls: { statusUrl: string; eventsUrl: string },
  headers: Record<string, string>,
): Response {
  const enc = new TextEncoder();
  const id = `chatcmpl-${run.id}`;
  const created = createdOf(run);
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: wf.slug,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  });
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSeq = 0;
      let streamed = '';
      let source: string | null = null; // with a fallback chain, the first listed node that streams
      const send = (data: unknown) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`));
        } catch {
          /* closed */
        }
      };
      const onEvent = (e: TraceEvent) => {
        if (closed || e.seq <= lastSeq) return;
        lastSeq = e.seq;
        if (e.type !== 'node.token' || !e.nodeId || !sources.includes(e.nodeId)) return;
        if (source === null) source = e.nodeId;
        if (e.nodeId !== source) return;
        const d = e.data.delta ?? e.data.token;
        if (typeof d !== 'string' || !d) return;
        streamed += d;
        send(chunk({ content: d }, null));
      };
      // From seq 0: the bus still holds every event of a run that started moments ago, so no token is missed.
      const unsubscribe = app.bus.subscribe(run.id, 0, onEvent);
      const ka = setInterval(() => {
        if (!closed)
          try {
            controller.enqueue(enc.encode(': keep-alive\n\n'));
          } catch {
            /* closed */
          }
      }, KEEP_ALIVE_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(ka);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      cleanup = close;
      req.signal.addEventListener('abort', close, { once: true });

      send(chunk({ role: 'assistant' }, null));
      try {
        const done = (await waitForRunToSettle(app, run.id, { timeoutMs: STREAM_MAX_MS, signal: req.signal })) ?? run;
        if (closed || req.signal.aborted) return close();
        if (!TERMINAL.has(done.status)) {
          send({ error: pendingError(done, urls) });
          return close();
        }
        if (done.status !== 'succeeded') {
          send({ error: failedError(done) });
          return close();
        }
        const content = contentFromOutputs(done.outputs);
        // Whatever the live tokens did not carry: everything when the node streamed nothing (e.g. a template node).
        if (content.startsWith(streamed) && content.length > streamed.length)
          send(chunk({ content: content.slice(streamed.length) }, null));
        send(chunk({}, 'stop', { usage: await usageOf(app, done.id) }));
        send('[DONE]');
      } catch (e) {
        send({ error: errorJson(500, 'INTERNAL', 'internal error; see the server log') });
        console.error('[paiflow] chat completion stream failed', run.id, (e as Error)?.message);
      }
      close();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { ...SSE_HEADERS, ...headers },
  });
}
