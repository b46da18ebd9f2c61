import { z } from 'zod';
import { PaiError } from '../errors';
import { defineNode } from './define';

const MAX_BODY_BYTES = 5 * 1024 * 1024;

export const httpConfigSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  url: z.string().min(1, 'the URL is required').describe('http(s) URL; may contain {{refs}}'),
  headers: z.array(z.object({ key: z.string().min(1), value: z.string() })).default([]),
  bodyType: z.enum(['none', 'json', 'text']).default('none'),
  body: z.string().default('').describe('Request body template (JSON text when bodyType is json)'),
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  continueOnError: z.boolean().default(false).describe('Succeed with the response even when the status is not 2xx'),
});
export type HttpConfig = z.infer<typeof httpConfigSchema>;

async function readLimited(res: Response): Promise<string> {
  const len = Number(res.headers.get('content-length') ?? 0);
  if (len > MAX_BODY_BYTES) throw new PaiError('HTTP_RESPONSE_TOO_LARGE', `response is ${len} bytes; the limit is ${MAX_BODY_BYTES}`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new PaiError('HTTP_RESPONSE_TOO_LARGE', `response exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const httpNode = defineNode<HttpConfig>({
  type: 'http',
  version: 1,
  label: 'HTTP request',
  category: 'integration',
  description: 'Calls an HTTP API (through the SSRF guard). Non-2xx fails the node unless "continue on error" is set.',
  configSchema: httpConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  sideEffects: true,
  async execute(ctx) {
    const c = ctx.config;
    const headers = new Headers();
    for (const h of c.headers) headers.set(h.key, String(h.value ?? ''));
    let body: string | undefined;
    if (c.bodyType !== 'none' && c.method !== 'GET' && c.method !== 'HEAD') {
      body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
      if (c.bodyType === 'json') {
        try { JSON.parse(body); } catch { throw new PaiError('INVALID_JSON_BODY', 'the request body is not valid JSON after templating', { path: 'config.body' }); }
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      } else if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
    }
    if (c.method !== 'GET' && c.method !== 'HEAD' && !headers.has('idempotency-key')) headers.set('idempotency-key', ctx.idempotencyKey);
    const res = await ctx.fetch(String(c.url), { method: c.method, headers, body, signal: ctx.signal, timeoutMs: c.timeoutMs });
    const text = await readLimited(res);
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try { parsed = JSON.parse(text); } catch { /* keep the text */ }
    }
    const output = { status: res.status, ok: res.ok, headers: Object.fromEntries(res.headers.entries()), body: parsed };
    if (!res.ok && !c.continueOnError) {
      throw new PaiError('HTTP_STATUS', `HTTP ${res.status} from ${new URL(String(c.url)).host}`, {
        retryable: res.status === 429 || res.status >= 500,
        details: { status: res.status, body: text.slice(0, 2000) },
      });
    }
    return { output };
  },
});
