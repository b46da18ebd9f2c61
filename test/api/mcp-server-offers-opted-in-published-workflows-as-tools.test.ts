// Guarantees: over a real socket, the official MCP SDK client (Client + StreamableHTTPClientTransport) with an API key
// sees as tools exactly the key's published workflows that are opted in with PATCH /publish { mcp: true } — name =
// slug, inputSchema = the start node's inputs — and calling one runs the current published version (recorded as
// trigger `mcp`) and returns its outputs as text JSON and structuredContent. A workflow not opted in, opted out again
// or unpublished is neither listed nor callable. A failed run and a run that cannot finish now are tool errors
// (isError) naming the run; a missing, wrong or revoked key is HTTP 401 before any MCP, a spent rate limit 429.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { ownerHeaders } from '../support/owner';
import { defaultRoutes, startRouteServer, type RouteServer } from '../support/route-server';
import { useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-mcp-');
process.env.SEED_EXAMPLE = '0';
// Low enough that one key can spend it in a burst (below); every other key here makes far fewer requests.
process.env.RATE_LIMIT_PER_MIN = '20';

let srv: RouteServer;
const clients: Client[] = [];

async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}
const asOwner = async (method: string, url: string, body?: unknown) =>
  json(method, url, body, await ownerHeaders(await getApp()));

const node = (id: string, type: string, config: unknown, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});
const chain = (...ids: string[]) => ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id }));

type Published = { id: string; slug: string; key: string; keyId: string };

async function publish(name: string, nodes: unknown[], ids: string[], opts: { description?: string; mcp?: boolean }) {
  const wf = await asOwner('POST', '/api/workflows', {
    name,
    description: opts.description ?? '',
    graph: { nodes, edges: chain(...ids) },
  });
  expect(wf.status, wf.text).toBe(201);
  const p = await asOwner('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  if (opts.mcp) {
    const on = await asOwner('PATCH', `/api/workflows/${wf.body.id}/publish`, { mcp: true });
    expect(on.status, on.text).toBe(200);
  }
  const k = await asOwner('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'mcp' });
  expect(k.status, k.text).toBe(201);
  return { id: wf.body.id, slug: p.body.slug, key: k.body.key, keyId: k.body.id } as Published;
}

async function newKey(wf: Published): Promise<{ key: string; id: string }> {
  const k = await asOwner('POST', `/api/workflows/${wf.id}/api-keys`, { name: 'another' });
  expect(k.status, k.text).toBe(201);
  return { key: k.body.key, id: k.body.id };
}

async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: 'paiflow-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/api/mcp`), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The error connecting with `key` fails with. */
const refused = (key?: string) =>
  connect(key).then(
    () => null,
    (e: unknown) => e,
  );

const startWith = (inputs: unknown[]) => node('start', 'start', { inputs });
const MESSAGE = { name: 'message', type: 'string', required: true, description: 'Who to greet' };

let greeter: Published;
let notOptedIn: Published;
let unpublished: Published;
let failing: Published;
let paused: Published;

beforeAll(async () => {
  await getApp();
  const routes = [
    ...(await defaultRoutes()),
    ['/api/mcp', await import('@/app/api/mcp/route')],
    ['/api/v1/models', await import('@/app/api/v1/models/route')],
  ] as Awaited<ReturnType<typeof defaultRoutes>>;
  srv = await startRouteServer(routes, { anonymous: true });

  greeter = await publish(
    'Greeter',
    [
      startWith([MESSAGE, { name: 'times', type: 'number', default: 2 }]),
      node('t1', 'template', { template: 'Hello {{inputs.message}} x{{inputs.times}}', format: 'text' }, 200),
      node('end', 'end', { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] }, 400),
    ],
    ['start', 't1', 'end'],
    { description: 'Greets someone', mcp: true },
  );
  const echo = (label: string) => [
    startWith([MESSAGE]),
    node('t1', 'template', { template: `${label} {{inputs.message}}`, format: 'text' }, 200),
    node('end', 'end', { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] }, 400),
  ];
  notOptedIn = await publish('Not opted in', echo('no'), ['start', 't1', 'end'], {});
  unpublished = await publish('Unpublished later', echo('gone'), ['start', 't1', 'end'], { mcp: true });
  failing = await publish(
    'Failing',
    [
      startWith([MESSAGE]),
      node('reply', 'llm', { userPrompt: '{{inputs.message}}', provider: { apiKeySecret: 'MCP_TEST_MISSING' } }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] }, 400),
    ],
    ['start', 'reply', 'end'],
    { mcp: true },
  );
  paused = await publish(
    'Paused',
    [
      startWith([MESSAGE]),
      node('ask', 'human_input', { prompt: 'Approve {{inputs.message}}?', answerType: 'text' }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.output.answer}}' }] }, 400),
    ],
    ['start', 'ask', 'end'],
    { mcp: true },
  );
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await srv?.close();
  await (await getApp()).close();
});

describe('the opt-in (PATCH /api/workflows/:id/publish)', () => {
  it('shows mcp in the publish state, and rejects a non-boolean with a path', async () => {
    expect((await asOwner('GET', `/api/workflows/${greeter.id}/publish`)).body).toMatchObject({
      mcp: true,
      mcpUrl: `${srv.baseUrl}/api/mcp`,
    });
    expect((await asOwner('GET', `/api/workflows/${notOptedIn.id}/publish`)).body.mcp).toBe(false);
    const bad = await asOwner('PATCH', `/api/workflows/${notOptedIn.id}/publish`, { mcp: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ path: 'mcp' });
  });
});

describe('tools', () => {
  it("lists the key's opted-in published workflow with its start inputs as the input schema", async () => {
    const client = await connect(greeter.key);
    expect(client.getServerVersion()?.name).toBe('paiflow');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ name: greeter.slug, title: 'Greeter', description: 'Greets someone' });
    expect(tools[0].inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string', description: 'Who to greet' }, times: { type: 'number', default: 2 } },
      required: ['message'],
    });
    expect(tools[0].outputSchema).toMatchObject({ type: 'object', properties: { text: {} } });
  });

  it('a call runs the published version, returns its outputs and is recorded as trigger mcp', async () => {
    const client = await connect(greeter.key);
    const r = await client.callTool({ name: greeter.slug, arguments: { message: 'mcp' } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ text: 'Hello mcp x2' });
    expect(JSON.parse((r.content as Array<{ type: string; text: string }>)[0].text)).toEqual({ text: 'Hello mcp x2' });
    const runId = (r._meta as Record<string, string>)['paiflow/runId'];
    const run = await (await getApp()).store.getRun(runId);
    expect(run).toMatchObject({ status: 'succeeded', triggerKind: 'mcp', triggerId: greeter.keyId });
    expect(run?.versionId).not.toBeNull();
  });

  it('arguments the start node refuses → a tool error naming the input (the model can correct it)', async () => {
    const client = await connect(greeter.key);
    const r = await client.callTool({ name: greeter.slug, arguments: { times: 3 } });
    expect(r.isError).toBe(true);
    expect((r.content as Array<{ text: string }>)[0].text).toMatch(/input "message" is required.*MISSING_INPUT/);
  });

  it('a workflow not opted in is not listed and cannot be called, by its own key or another', async () => {
    const own = await connect(notOptedIn.key);
    expect((await own.listTools()).tools).toEqual([]);
    const e = await own.callTool({ name: notOptedIn.slug, arguments: { message: 'x' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).message).toContain('Unknown tool');
    const other = await connect(greeter.key);
    const e2 = await other.callTool({ name: notOptedIn.slug, arguments: { message: 'x' } }).catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(McpError);
    expect(await (await getApp()).store.listRuns(notOptedIn.id)).toEqual([]);
  });

  it('unpublishing or opting out removes the tool at once', async () => {
    const client = await connect(unpublished.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([unpublished.slug]);
    expect((await asOwner('DELETE', `/api/workflows/${unpublished.id}/publish`)).status).toBe(200);
    expect((await client.listTools()).tools).toEqual([]);
    const e = await client.callTool({ name: unpublished.slug, arguments: { message: 'x' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(McpError);

    const off = await asOwner('PATCH', `/api/workflows/${greeter.id}/publish`, { mcp: false });
    expect(off.body.mcp).toBe(false);
    const g = await connect(greeter.key);
    expect((await g.listTools()).tools).toEqual([]);
    expect((await asOwner('PATCH', `/api/workflows/${greeter.id}/publish`, { mcp: true })).body.mcp).toBe(true);
    expect((await g.listTools()).tools.map((t) => t.name)).toEqual([greeter.slug]);
  });

  it("a failed run → isError with the run's id and error", async () => {
    const client = await connect(failing.key);
    const r = await client.callTool({ name: failing.slug, arguments: { message: 'x' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    const runId = (r._meta as Record<string, string>)['paiflow/runId'];
    const text = (r.content as Array<{ text: string }>)[0].text;
    expect(text).toContain(`run ${runId} failed`);
    expect(text).toContain('MCP_TEST_MISSING');
  });

  it('a run that cannot finish now (human input) → isError with the run id and a status URL for the key', async () => {
    const client = await connect(paused.key);
    const r = await client.callTool({ name: paused.slug, arguments: { message: 'x' } });
    expect(r.isError).toBe(true);
    const meta = r._meta as Record<string, string>;
    expect(meta['paiflow/status']).toBe('waiting');
    expect(meta['paiflow/statusUrl']).toBe(`${srv.baseUrl}/api/v1/runs/${meta['paiflow/runId']}`);
    expect((r.content as Array<{ text: string }>)[0].text).toContain(meta['paiflow/statusUrl']);
    const poll = await json('GET', new URL(meta['paiflow/statusUrl']).pathname, undefined, {
      authorization: `Bearer ${paused.key}`,
    });
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('waiting');
  });
});

describe('HTTP level', () => {
  it('no key, a malformed key or an unknown key → 401 with a Bearer challenge, before any MCP', async () => {
    for (const key of [undefined, 'not-a-key', `pf_${'x'.repeat(43)}`]) {
      const e = await refused(key);
      expect(e, String(key)).toBeInstanceOf(StreamableHTTPError);
      expect((e as StreamableHTTPError).code).toBe(401);
    }
    const raw = await json('POST', '/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer realm="paiflow"/);
    expect(raw.body.error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a revoked key → 401', async () => {
    const k = await newKey(greeter);
    await connect(k.key);
    expect((await asOwner('DELETE', `/api/api-keys/${k.id}`)).status).toBe(200);
    const e = await refused(k.key);
    expect((e as StreamableHTTPError).code).toBe(401);
  });

  it('GET and DELETE → 405 (stateless: no stream, no session); the preflight allows the MCP headers', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await json(method, '/api/mcp', undefined, { authorization: `Bearer ${greeter.key}` });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toContain('POST');
      expect(r.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    }
    const pre = await fetch(`${srv.baseUrl}/api/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
  });

  it('a key past its rate limit → 429 with Retry-After, as on /api/v1', async () => {
    const k = await newKey(greeter);
    const ping = () =>
      json(
        'POST',
        '/api/mcp',
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { authorization: `Bearer ${k.key}`, accept: 'application/json, text/event-stream' },
      );
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof ping>> | null = null;
    // 20 a minute, refilled continuously: well before 40 quick requests the bucket is empty.
    for (let i = 0; i < 40 && !limited; i++) {
      const r = await ping();
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses[0]).toBe(200);
    expect(limited, `statuses: ${statuses.join(',')}`).not.toBeNull();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.body.error).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
