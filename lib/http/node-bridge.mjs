// Serving web-standard route handlers (Request → Response) from node:http, without Next's router: used by the
// production server (server.mjs) for the published API's routes and by tests that need a real socket.
// Plain JavaScript so that server.mjs runs on bare Node; types in node-bridge.d.mts.
import { Readable } from 'node:stream';

/** Path parameters when `pathname` matches a pattern like "/api/v1/runs/:runId", else null. */
export function matchPath(pattern, pathname) {
  const p = pattern.split('/');
  const s = pathname.split('/');
  if (p.length !== s.length) return null;
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      if (!s[i]) return null;
      try {
        params[p[i].slice(1)] = decodeURIComponent(s[i]);
      } catch {
        return null;
      }
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

/**
 * Calls `handler` with the request as a web Request (streamed body; the client going away aborts req.signal) and
 * streams its Response back, SSE included, respecting backpressure. A handler that throws answers a bare 500.
 */
export async function serveWithHandler(handler, params, req, res) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const abort = new AbortController();
  // Only a client that went away before the answer was complete aborts the handler (an abort after a finished
  // answer would cost a DOMException with its stack for nothing).
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  let response;
  try {
    const request = new Request(url, {
      method: req.method,
      headers,
      signal: abort.signal,
      ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
    });
    response = await handler(request, { params: Promise.resolve(params) });
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'internal error' } }));
    return;
  }
  const out = {};
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') out[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  if (!response.body || req.method === 'HEAD') {
    res.writeHead(response.status, out);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  abort.signal.addEventListener(
    'abort',
    () => {
      void reader.cancel().catch(() => {});
    },
    { once: true },
  );
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    // A body that is one chunk (a JSON answer) goes out in one write with its length, not chunked in two.
    let first;
    try {
      first = await reader.read();
    } catch {
      res.destroy();
      return;
    }
    const next = first.done ? first : await reader.read().catch(() => ({ done: true }));
    if (next.done) {
      out['content-length'] = String(first.value?.byteLength ?? 0);
      res.writeHead(response.status, out);
      res.end(first.value);
      return;
    }
    res.writeHead(response.status, out);
    res.write(first.value);
    res.write(next.value);
  } else {
    res.writeHead(response.status, out);
  }
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value))
        await new Promise((r) => {
          res.once('drain', r);
          res.once('close', r);
        });
    }
  } catch {
    /* the client went away */
  }
  res.end();
}
