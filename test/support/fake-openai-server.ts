/**
 * A local OpenAI-compatible HTTP server for tests, so the REAL `openai` SDK can be exercised over real HTTP
 * (retries, SSE parsing, aborts) without network access or a key.
 *
 * - POST /v1/chat/completions: non-streaming (chat.completion) or SSE (chat.completion.chunk … [DONE]).
 *   Responses come from the script() queue, else from the default (echo of the last user message).
 * - POST /v1/embeddings: deterministic unit vectors of dimension 8 (sha256 of each input); honours the SDK's
 *   default `encoding_format: 'base64'`. `setEmbeddings` makes it answer float arrays whatever was asked (as some
 *   self-hosted servers do) and/or vectors of its own (a non-finite number is written as 1e999, which JSON reads
 *   as Infinity; NaN as null).
 * - POST /v1/audio/speech: audio whose length follows the input (wav: a 24 kHz 16-bit mono WAV with 100 bytes of
 *   samples per input character; pcm: those bytes raw; anything else: an ID3-tagged stand-in). POST
 *   /v1/images/generations: `n` 1×1 PNGs as b64_json, or as URLs served by GET /files/<name>.png (no key needed).
 * - POST /v1/rerank (Jina / SiliconFlow / vLLM shape) and POST /api/v1/services/rerank/text-rerank/text-rerank
 *   (DashScope's): each document scored by the share of the query's words it contains (ties: shorter first), in
 *   each API's own answer shape, best first; a bearer token containing "wrong" is refused with 401 (echoing it).
 * - GET /v1/models: the ids given to `setModels` (default: fake-chat, fake-embed); `setModels(null)`: 404, a provider
 *   without a list. A bearer token containing "wrong" is refused there with 401, as a provider refuses a bad key.
 * - `paths`: the path of each request, beside `requests` (its body).
 * - Error statuses carry an OpenAI-style body and `retry-after-ms: 10` so SDK retries are fast.
 *   401/403 bodies echo the bearer token like OpenAI's "Incorrect API key provided" (to test redaction).
 * - `hang`: non-streaming never answers; streaming sends headers + the first text chunk, then stalls.
 *   Waits (delayMs, hang, chunkDelayMs) stop as soon as the client disconnects.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedResponse {
  text?: string;
  toolCalls?: { id?: string; name: string; arguments: string | object }[];
  /** Sent as is (plus total_tokens); `prompt_tokens_details.cached_tokens`: cached prompt tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
  status?: number;
  delayMs?: number;
  hang?: boolean;
  chunkDelayMs?: number;
}

export interface FakeOpenAi {
  baseURL: string;
  requests: any[];
  /** The path of each request in `requests`. */
  paths: string[];
  /** The bearer token of each request, in order (to check which credential a node sent). */
  tokens: string[];
  script(...responses: ScriptedResponse[]): void;
  setDefault(fn?: (body: any) => ScriptedResponse): void;
  /** What GET /v1/models lists; null: it answers 404. */
  setModels(ids: string[] | null): void;
  /**
   * How POST /v1/embeddings answers from now on: `format: 'float'` ignores `encoding_format`; `vector` gives an
   * input's vector instead of the default one. No argument: the default again.
   */
  setEmbeddings(o?: EmbeddingsMode): void;
  close(): Promise<void>;
}

export interface EmbeddingsMode {
  format?: 'as-asked' | 'float';
  vector?: (input: string, index: number) => number[];
}

const textOf = (c: unknown) => (typeof c === 'string' ? c : c == null ? '' : JSON.stringify(c));
const echoDefault = (body: any): ScriptedResponse => {
  const msgs: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...msgs].reverse().find((m) => m?.role === 'user');
  return { text: `echo: ${textOf(lastUser?.content)}` };
};

const DASHSCOPE_RERANK = '/api/v1/services/rerank/text-rerank/text-rerank';

/** `listenPort`: a port of its own (0: any free one), e.g. one the server under test was told it may call. */
export async function startFakeOpenAi(listenPort = 0): Promise<FakeOpenAi> {
  const requests: any[] = [];
  const paths: string[] = [];
  const tokens: string[] = [];
  const queue: ScriptedResponse[] = [];
  let fallback = echoDefault;
  let seq = 0;
  let modelIds: string[] | null = ['fake-chat', 'fake-embed'];
  let embeddingsMode: EmbeddingsMode = {};

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendError(res, 500, String(err?.message ?? err));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && /^\/files\/[\w-]+\.png$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG_1X1.byteLength });
      return res.end(PNG_1X1);
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return sendError(res, 400, 'Invalid JSON body');
    }
    requests.push(body);
    paths.push((req.url ?? '').split('?')[0]);
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer (\S+)$/.exec(auth)?.[1];
    if (!token) return sendError(res, 401, 'Missing bearer token');
    tokens.push(token);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return models(token, res);
    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(body, token, res);
    if (req.method === 'POST' && path === '/v1/embeddings') return embeddings(body, res);
    if (req.method === 'POST' && (path === '/v1/rerank' || path === DASHSCOPE_RERANK))
      return rerank(body, token, path, res);
    if (req.method === 'POST' && path === '/v1/audio/speech') return speech(body, res);
    if (req.method === 'POST' && path === '/v1/images/generations') return images(body, req, res);
    sendError(res, 404, `No route ${req.method} ${path}`);
  }

  function rerank(body: any, token: string, path: string, res: ServerResponse) {
    if (token.includes('wrong')) return sendError(res, 401, `Incorrect API key provided: ${token}.`);
    const dashscope = path === DASHSCOPE_RERANK;
    const query: string = dashscope ? body?.input?.query : body?.query;
    const documents: string[] = dashscope ? body?.input?.documents : body?.documents;
    if (typeof query !== 'string' || !Array.isArray(documents))
      return sendError(res, 400, 'query and documents needed');
    const words = (t: string) => t.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
    const asked = [...new Set(words(query))];
    const results = documents
      .map((d, index) => {
        const has = new Set(words(String(d)));
        const share = asked.length ? asked.filter((w) => has.has(w)).length / asked.length : 0;
        return { index, relevance_score: Math.round((share - String(d).length / 1e7) * 1e6) / 1e6 };
      })
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, (dashscope ? body?.parameters?.top_n : body?.top_n) ?? documents.length);
    sendJson(
      res,
      200,
      dashscope ? { output: { results }, usage: { total_tokens: 1 } } : { model: body.model, results },
    );
  }

  function models(token: string, res: ServerResponse) {
    if (token.includes('wrong')) return sendError(res, 401, `Incorrect API key provided: ${token}.`);
    if (!modelIds) return sendError(res, 404, 'No route GET /v1/models');
    sendJson(res, 200, {
      object: 'list',
      data: modelIds.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
    });
  }

  async function chat(body: any, token: string, res: ServerResponse) {
    const r = queue.shift() ?? fallback(body);
    if (r.delayMs && !(await wait(res, r.delayMs))) return;
    if (r.status && r.status >= 400) {
      const msg =
        r.status === 401 || r.status === 403 ? `Incorrect API key provided: ${token}.` : `Scripted error ${r.status}`;
      return sendError(res, r.status, msg);
    }
    const id = `chatcmpl-fake-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'fake-model';
    const text = r.text ?? '';
    const calls = (r.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_fake_${seq}_${i}`,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const finish_reason = calls.length ? 'tool_calls' : 'stop';
    const promptChars = (body.messages ?? []).reduce((n: number, m: any) => n + textOf(m?.content).length, 0);
    const usage = r.usage ?? {
      prompt_tokens: Math.ceil(promptChars / 4),
      completion_tokens: Math.ceil((text.length + calls.reduce((n, c) => n + c.arguments.length, 0)) / 4),
    };
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const wireCalls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));

    if (!body.stream) {
      if (r.hang) return; // never answer; the client must abort or time out
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: calls.length && !text ? null : text,
              ...(calls.length ? { tool_calls: wireCalls } : {}),
              refusal: null,
            },
            finish_reason,
            logprobs: null,
          },
        ],
        usage: fullUsage,
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: object, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    const events: object[] = [chunk({ role: 'assistant', content: '' })];
    for (const piece of text ? text.split(/(?<=\s)(?=\S)/) : []) events.push(chunk({ content: piece }));
    calls.forEach((c, index) => {
      events.push(
        chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
      );
      for (const piece of thirds(c.arguments))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    events.push(chunk({}, finish_reason));
    if (body.stream_options?.include_usage)
      events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: fullUsage });

    for (let i = 0; i < events.length; i++) {
      if (res.destroyed) return;
      if (i > 0 && r.chunkDelayMs && !(await wait(res, r.chunkDelayMs))) return;
      res.write(`data: ${JSON.stringify(events[i])}\n\n`);
      if (r.hang && i === Math.min(1, events.length - 1)) return; // stall after the first text chunk
    }
    res.end('data: [DONE]\n\n');
  }

  function embeddings(body: any, res: ServerResponse) {
    const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
    const base64 = body.encoding_format === 'base64' && embeddingsMode.format !== 'float';
    const data = inputs.map((input, index) => {
      const vec = embeddingsMode.vector?.(textOf(input), index) ?? defaultVector(textOf(input));
      const embedding = base64 ? Buffer.from(new Float32Array(vec).buffer).toString('base64') : vec;
      return { object: 'embedding', index, embedding };
    });
    const tokens = inputs.reduce<number>((n, i) => n + Math.ceil(textOf(i).length / 4), 0);
    const answer = {
      object: 'list',
      data,
      model: body.model ?? 'fake-embedding',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
    // JSON has no Infinity: written as 1e999, which a JSON parser reads back as Infinity.
    const text = JSON.stringify(answer, (_k, v) =>
      typeof v === 'number' && !Number.isFinite(v) && !Number.isNaN(v) ? `__inf${v > 0 ? '+' : '-'}__` : v,
    ).replace(/"__inf([+-])__"/g, (_m, sign: string) => (sign === '+' ? '1e999' : '-1e999'));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function speech(body: any, res: ServerResponse) {
    const n = textOf(body.input).length * 100;
    const samples = Buffer.alloc(n, 0x11);
    let audio: Buffer;
    let type: string;
    if (body.response_format === 'wav') {
      const h = Buffer.alloc(44);
      h.write('RIFF', 0);
      h.writeUInt32LE(36 + n, 4);
      h.write('WAVEfmt ', 8);
      h.writeUInt32LE(16, 16);
      h.writeUInt16LE(1, 20);
      h.writeUInt16LE(1, 22);
      h.writeUInt32LE(24_000, 24);
      h.writeUInt32LE(48_000, 28);
      h.writeUInt16LE(2, 32);
      h.writeUInt16LE(16, 34);
      h.write('data', 36);
      h.writeUInt32LE(n, 40);
      [audio, type] = [Buffer.concat([h, samples]), 'audio/wav'];
    } else if (body.response_format === 'pcm') [audio, type] = [samples, 'audio/pcm'];
    else
      [audio, type] = [
        Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), samples]),
        'audio/mpeg',
      ];
    res.writeHead(200, { 'content-type': type, 'content-length': audio.byteLength });
    res.end(audio);
  }

  function images(body: any, req: IncomingMessage, res: ServerResponse) {
    const n = Number(body.n ?? 1);
    const origin = `http://${req.headers.host}`;
    const data = Array.from({ length: n }, (_, i) =>
      body.response_format === 'url'
        ? { url: `${origin}/files/img-${i}.png` }
        : { b64_json: PNG_1X1.toString('base64'), revised_prompt: `revised: ${textOf(body.prompt)}` },
    );
    sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data });
  }

  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    paths,
    tokens,
    script: (...responses) => void queue.push(...responses),
    setDefault: (fn) => void (fallback = fn ?? echoDefault),
    setModels: (ids) => void (modelIds = ids),
    setEmbeddings: (o) => void (embeddingsMode = o ?? {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A unit vector of dimension 8 from the sha256 of the text. */
function defaultVector(text: string): number[] {
  const bytes = createHash('sha256').update(text).digest();
  const raw = Array.from({ length: 8 }, (_, i) => bytes[i] / 127.5 - 1);
  const norm = Math.hypot(...raw) || 1;
  return raw.map((v) => v / norm);
}

/** A 1×1 red PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);

/** Resolves true after `ms`, or false as soon as the client disconnects. */
function wait(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(t);
      resolve(false);
    };
    const t = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

function thirds(s: string): string[] {
  if (s.length < 3) return s ? [s] : [];
  const a = Math.ceil(s.length / 3);
  return [s.slice(0, a), s.slice(a, 2 * a), s.slice(2 * a)];
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string) {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status === 401 || status === 403
        ? 'invalid_request_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null;
  sendJson(res, status, { error: { message, type, param: null, code } }, { 'retry-after-ms': '10' });
}
