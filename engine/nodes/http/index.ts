import { z } from 'zod';
import { PaiError } from '../../errors';
import { renderText, resolveDeep, type TemplateScope } from '../../template/resolve';
import { readTextLimited } from '../../net/read-limited';
import { defineNode } from '../../node-kit/define';
import { credentialFor } from '../shared/provider-settings';
import { assertCredentialAllows, hostsAllow, secretValuesOf, type ResolvedCredential } from '../../credentials/types';
import { scrub } from '../../text/scrub';

const MAX_BODY_BYTES = 5 * 1024 * 1024;

export const httpConfigSchema = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  url: z.string().min(1, 'the URL is required').describe('http(s) URL; may contain {{refs}}'),
  headers: z
    .array(
      z.strictObject({
        key: z.string().min(1),
        value: z.string().default(''),
        secret: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
          .optional()
          .describe(
            'Name of a secret whose value is sent (with value as a prefix, e.g. "Bearer "); never stored in traces',
          ),
      }),
    )
    .default([]),
  credentialId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('A credential of this workspace (header, bearer or basic auth), sent only to the hosts it is bound to'),
  bodyType: z.enum(['none', 'json', 'text']).default('none'),
  body: z.string().default('').describe('Request body template (JSON text when bodyType is json)'),
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  continueOnError: z.boolean().default(false).describe('Succeed with the response even when the status is not 2xx'),
});
export type HttpConfig = z.infer<typeof httpConfigSchema>;

function readLimited(res: Response): Promise<string> {
  return readTextLimited(res, MAX_BODY_BYTES, { code: 'HTTP_RESPONSE_TOO_LARGE', what: 'response' });
}

/**
 * Renders the body template. A JSON body that is itself valid JSON is parsed first and its strings resolved in
 * place, so values stay typed and correctly escaped (a value holding `", "admin": true` cannot break out of its
 * string). A JSON template that only becomes JSON after interpolation (`{"n": {{inputs.n}}}`) is rendered as text
 * and must then parse.
 */
function renderBody(template: string, bodyType: 'json' | 'text', scope: TemplateScope): string {
  if (bodyType === 'text') return renderText(template, scope);
  let doc: unknown;
  let parsed = false;
  try {
    doc = JSON.parse(template);
    parsed = true;
  } catch {
    /* not JSON before templating: interpolate as text below */
  }
  if (parsed) return JSON.stringify(resolveDeep(doc, scope)) ?? 'null';
  const text = renderText(template, scope);
  try {
    JSON.parse(text);
  } catch {
    throw new PaiError('INVALID_JSON_BODY', 'the request body is not valid JSON after templating', {
      path: 'config.body',
    });
  }
  return text;
}

/** Network-level failures as stable, retryable codes; cancellation and the node timeout stay with runNode. */
function networkError(err: unknown, signal: AbortSignal, host: string, timeoutMs: number): unknown {
  if (err instanceof PaiError || signal.aborted) return err;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError')
    return new PaiError('HTTP_TIMEOUT', `no complete answer from ${host} within ${timeoutMs} ms`, {
      retryable: true,
      cause: err,
    });
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new PaiError('HTTP_NETWORK_ERROR', `request to ${host} failed: ${why}`, { retryable: true, cause: err });
}

/** The header a credential is sent as; none for an OpenAI-compatible credential without a key (a local server). */
function credentialHeader(cred: ResolvedCredential): [string, string] | null {
  switch (cred.type) {
    case 'http_header':
      return [cred.data.name, cred.data.value];
    case 'bearer':
      return ['authorization', `Bearer ${cred.data.token}`];
    case 'basic':
      return [
        'authorization',
        `Basic ${Buffer.from(`${cred.data.username}:${cred.data.password}`).toString('base64')}`,
      ];
    case 'openai':
      return cred.data.apiKey ? ['authorization', `Bearer ${cred.data.apiKey}`] : null;
  }
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
  outputFields: [
    { path: 'status', description: 'The HTTP status code' },
    { path: 'ok', description: 'Whether the status is 2xx' },
    { path: 'headers', description: 'The response headers' },
    { path: 'body', description: 'The body, parsed when it is JSON' },
  ],
  sideEffects: true,
  // The body is rendered by the node itself (JSON-aware), not by generic text interpolation.
  rawKeys: ['body'],
  async execute(ctx) {
    const c = ctx.config;
    const headers = new Headers();
    const secretHeaders: string[] = [];
    /** Every secret value sent: scrubbed from what the node stores if the server echoes it back. */
    const sent: string[] = [];
    const target = () => {
      try {
        return new URL(String(c.url));
      } catch {
        throw new PaiError('INVALID_URL', 'the URL is not valid', { path: 'config.url' });
      }
    };
    for (const h of c.headers) {
      let value = String(h.value ?? '');
      if (h.secret) {
        const secret = ctx.secrets.get(h.secret);
        if (secret === undefined)
          throw new PaiError('SECRET_NOT_FOUND', `secret "${h.secret}" is not configured (set SECRET_${h.secret})`, {
            path: 'config.headers',
          });
        const url = target();
        if (!hostsAllow(ctx.secrets.hosts?.(h.secret) ?? [], url))
          throw new PaiError(
            'SECRET_HOST_NOT_ALLOWED',
            `secret "${h.secret}" may not be sent to ${url.host}: list it in SECRET_${h.secret}_HOSTS`,
            { path: 'config.headers' },
          );
        value += secret;
        secretHeaders.push(h.key);
        sent.push(secret);
      }
      headers.set(h.key, value);
    }
    if (c.credentialId) {
      const cred = await credentialFor(ctx, c.credentialId);
      assertCredentialAllows(cred, target(), 'config.url');
      const header = credentialHeader(cred);
      if (header) {
        headers.set(header[0], header[1]);
        secretHeaders.push(header[0]);
        sent.push(...secretValuesOf(cred));
      }
    }
    let body: string | undefined;
    if (c.bodyType !== 'none' && c.method !== 'GET' && c.method !== 'HEAD') {
      body = renderBody(String(ctx.rawConfig.body ?? ''), c.bodyType, ctx.scope);
      if (!headers.has('content-type'))
        headers.set('content-type', c.bodyType === 'json' ? 'application/json' : 'text/plain; charset=utf-8');
    }
    if (c.method !== 'GET' && c.method !== 'HEAD' && !headers.has('idempotency-key'))
      headers.set('idempotency-key', ctx.idempotencyKey);
    let host = String(c.url);
    try {
      host = new URL(String(c.url)).host;
    } catch {
      /* the guard reports invalid URLs */
    }
    let res: Response;
    let text: string;
    try {
      res = await ctx.fetch(String(c.url), {
        method: c.method,
        headers,
        body,
        signal: ctx.signal,
        timeoutMs: c.timeoutMs,
        secretHeaders,
      });
      text = await readLimited(res);
    } catch (err) {
      throw networkError(err, ctx.signal, host, c.timeoutMs);
    }
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        /* keep the text */
      }
    }
    const output = scrub(
      { status: res.status, ok: res.ok, headers: Object.fromEntries(res.headers.entries()), body: parsed },
      sent,
    );
    if (!res.ok && !c.continueOnError) {
      throw new PaiError('HTTP_STATUS', `HTTP ${res.status} from ${host}`, {
        retryable: res.status === 429 || res.status >= 500,
        details: { status: res.status, body: scrub(text.slice(0, 2000), sent) },
      });
    }
    return { output };
  },
});
