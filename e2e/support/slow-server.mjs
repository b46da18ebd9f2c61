// A local HTTP service for the e2e suite: the app's HTTP node calls it (it is allowlisted via HTTP_ALLOWLIST),
// so runs can succeed, take their time (`/slow?ms=`) or fail (`/status/500`) without any outside network.
import { createServer } from 'node:http';

const port = Number(process.argv[2] || process.env.PORT || 0);

/**
 * The scripted judge of an evaluation's `llm_judge` scorer (model `e2e-judge`): it reads the expected answer and the
 * output from the judge prompt (engine/evaluation/model-scorers.ts) and answers 1 when they are equal, 0.2 when not.
 */
function judgeVerdict(request) {
  const prompt = String(request.messages?.at(-1)?.content ?? '');
  const section = (title) => {
    const m = new RegExp(`${title}:\\n([^\\n]*)`).exec(prompt);
    try {
      return m ? JSON.parse(m[1]) : undefined;
    } catch {
      return m?.[1];
    }
  };
  const expected = section('Expected answer');
  const output = section('Output to grade');
  return JSON.stringify(
    String(output) === String(expected)
      ? { score: 1, reason: `the output "${output}" is the expected answer` }
      : { score: 0.2, reason: `the output "${output}" is not the expected "${expected}"` },
  );
}

/** Held requests (/hold) by key, each answered when the key is released. */
const held = new Map();

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const json = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/ok') return json(200, { ok: true, service: 'e2e', method: req.method });
  // An OpenAI-compatible chat endpoint for LLM nodes that use a credential: it answers with which key it was given
  // (its last four characters), so a spec can tell that the node sent the credential it picked.
  if (url.pathname === '/v1/chat/completions' && req.method === 'POST') {
    const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!key) return json(401, { error: { message: 'Missing bearer token', type: 'invalid_request_error' } });
    let raw = '';
    req.on('data', (c) => (raw += c));
    return req.on('end', () => {
      let request = {};
      try {
        request = JSON.parse(raw || '{}');
      } catch {
        /* not JSON: answer plainly */
      }
      const stream = request.stream === true;
      const text =
        request.model === 'e2e-judge' ? judgeVerdict(request) : `e2e model answered with key …${key.slice(-4)}`;
      const base = { id: 'chatcmpl-e2e', created: Math.floor(Date.now() / 1000), model: 'e2e-model' };
      if (!stream)
        return json(200, {
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
        });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish_reason = null, extra = {}) => {
        const body = { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] };
        res.write(`data: ${JSON.stringify({ ...body, ...extra })}\n\n`);
      };
      chunk({ role: 'assistant', content: text });
      chunk({}, 'stop', { usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
      res.end('data: [DONE]\n\n');
    });
  }
  // A rerank API (POST /v1/rerank, the shape of Jina / SiliconFlow / vLLM): each document scored by the share of the
  // query's words it has, best first, so a spec can predict the order.
  if (url.pathname === '/v1/rerank' && req.method === 'POST') {
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? ''))
      return json(401, { error: { message: 'Missing bearer token', type: 'invalid_request_error' } });
    let raw = '';
    req.on('data', (c) => (raw += c));
    return req.on('end', () => {
      const { query = '', documents = [] } = JSON.parse(raw || '{}');
      const words = (t) =>
        String(t)
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? [];
      const asked = [...new Set(words(query))];
      const results = documents
        .map((d, index) => {
          const has = new Set(words(d));
          return { index, relevance_score: asked.filter((w) => has.has(w)).length / Math.max(1, asked.length) };
        })
        .sort((a, b) => b.relevance_score - a.relevance_score);
      json(200, { model: 'e2e-reranker', results });
    });
  }
  // The provider's model list (GET /v1/models), which a credential's "Test" and the model inputs' suggestions read.
  if (url.pathname === '/v1/models' && req.method === 'GET') {
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? ''))
      return json(401, { error: { message: 'Missing bearer token', type: 'invalid_request_error' } });
    const ids = ['e2e-model', 'e2e-model-large', 'e2e-embed-small', 'e2e-reranker'];
    return json(200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'e2e' })) });
  }
  // A request held until the test releases its key (GET /release?key=…): the node calling it stays running for as long
  // as the test needs to look at it, however slow the machine.
  if (url.pathname === '/hold') {
    const key = url.searchParams.get('key') ?? '';
    const release = () => json(200, { ok: true, held: key });
    held.set(key, [...(held.get(key) ?? []), release]);
    req.on('close', () =>
      held.set(
        key,
        (held.get(key) ?? []).filter((r) => r !== release),
      ),
    );
    return;
  }
  if (url.pathname === '/release') {
    const key = url.searchParams.get('key') ?? '';
    const waiting = held.get(key) ?? [];
    held.delete(key);
    for (const release of waiting) release();
    return json(200, { released: waiting.length });
  }
  if (url.pathname === '/slow') {
    const ms = Math.min(Number(url.searchParams.get('ms') ?? 2000), 30_000);
    const t = setTimeout(() => json(200, { ok: true, sleptMs: ms }), ms);
    req.on('close', () => clearTimeout(t));
    return;
  }
  const m = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (m) return json(Number(m[1]), { status: Number(m[1]) });
  return json(404, { error: 'not found' });
});
server.listen(port, '127.0.0.1', () => console.log(`e2e slow server on http://127.0.0.1:${server.address().port}`));
