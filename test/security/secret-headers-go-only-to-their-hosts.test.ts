// Guarantees: an HTTP node header can take its value from a named secret: the request carries the secret, while the
// node's config/trace input holds only the secret's name; the secret goes only to the hosts SECRET_<NAME>_HOSTS
// lists; a server that echoes it back has it redacted from the stored output; a missing secret fails clearly.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import type { NodeContext } from '@/engine/node-kit/define';
import { httpConfigSchema, httpNode, type HttpConfig } from '@/engine/nodes/http';
import { redact } from '@/engine/runtime/redact';

let seen: IncomingHttpHeaders | undefined;
const server = createServer((req, res) => {
  seen = req.headers;
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-echo', String(req.headers['x-api-key'] ?? ''));
  res.end(req.url === '/echo' ? JSON.stringify({ youSent: req.headers['x-api-key'] }) : '{"ok":true}');
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** `hosts`: SECRET_<NAME>_HOSTS of every secret (default: the local test server). */
function ctxFor(
  config: HttpConfig,
  secrets: Record<string, string>,
  hosts: string[] | undefined = [`127.0.0.1:${port}`],
): NodeContext<HttpConfig> {
  return {
    runId: 'r',
    nodeId: 'h',
    nodeType: 'http',
    attempt: 1,
    idempotencyKey: 'r:h:1',
    config,
    rawConfig: config,
    scope: { inputs: {}, nodes: {} },
    signal: new AbortController().signal,
    spanId: 's',
    emit: () => {},
    fetch: createGuardedFetch({ allowlist: [`127.0.0.1:${port}`] }),
    secrets: { get: (n) => secrets[n], hosts: () => hosts },
    llm: () => {
      throw new Error('no llm');
    },
    iteration: 0,
    checkpoint: { load: async () => undefined, save: async () => {} },
  };
}

describe('HTTP node secret headers', () => {
  it('sends prefix + secret value; the stored input shows only the name', async () => {
    const config = httpConfigSchema.parse({
      url: `http://127.0.0.1:${port}/x`,
      headers: [{ key: 'Authorization', value: 'Bearer ', secret: 'CRM_TOKEN' }],
    });
    const res = await httpNode.execute(ctxFor(config, { CRM_TOKEN: 's3cr3t-value' }));
    expect((res.output as { status: number }).status).toBe(200);
    expect(seen?.authorization).toBe('Bearer s3cr3t-value');
    expect(JSON.stringify(redact(config))).not.toContain('s3cr3t-value');
    expect(JSON.stringify(config)).toContain('CRM_TOKEN');
  });

  it('a secret goes only to the hosts SECRET_<NAME>_HOSTS lists: elsewhere the node fails before sending', async () => {
    seen = undefined;
    const config = httpConfigSchema.parse({
      url: `http://127.0.0.1:${port}/x`,
      headers: [{ key: 'X-Api-Key', secret: 'CRM_TOKEN' }],
    });
    for (const hosts of [[], ['api.example.com'], [`127.0.0.1:${port + 1}`]]) {
      await expect(httpNode.execute(ctxFor(config, { CRM_TOKEN: 's3cr3t-value' }, hosts))).rejects.toMatchObject({
        code: 'SECRET_HOST_NOT_ALLOWED',
      });
    }
    expect(seen).toBeUndefined();
  });

  it('a secret the server echoes back is redacted in the stored output', async () => {
    const config = httpConfigSchema.parse({
      url: `http://127.0.0.1:${port}/echo`,
      headers: [{ key: 'X-Api-Key', secret: 'CRM_TOKEN' }],
    });
    const res = await httpNode.execute(ctxFor(config, { CRM_TOKEN: 's3cr3t-value' }));
    expect(seen?.['x-api-key']).toBe('s3cr3t-value');
    expect(JSON.stringify(res.output)).not.toContain('s3cr3t-value');
    expect(JSON.stringify(res.output)).toContain('[redacted]');
  });

  it('a missing secret fails with SECRET_NOT_FOUND and sends nothing', async () => {
    seen = undefined;
    const config = httpConfigSchema.parse({
      url: `http://127.0.0.1:${port}/x`,
      headers: [{ key: 'X-Api-Key', secret: 'NOPE' }],
    });
    await expect(httpNode.execute(ctxFor(config, {}))).rejects.toMatchObject({ code: 'SECRET_NOT_FOUND' });
    expect(seen).toBeUndefined();
  });
});
