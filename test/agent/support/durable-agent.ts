/**
 * Shared set-up of the durable-agent tests: a scripted OpenAI-compatible model over real HTTP, a counting HTTP
 * target the agent's http_fetch calls POST to (it records each request's path, body and Idempotency-Key), and a
 * workflow start → agent → end whose agent may call http_fetch.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Graph } from '@/engine/graph/schema';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import type { TestDb } from '../../support/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fake-openai-server';
import { createHarness, type Harness } from '../../support/harness';

export interface CountingTarget {
  url: string;
  hits: { path: string; body: string; key: string | undefined }[];
  close(): Promise<void>;
}

export async function startCountingTarget(): Promise<CountingTarget> {
  const hits: CountingTarget['hits'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body, key: req.headers['idempotency-key'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, n: hits.length }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export function agentGraph(config: Record<string, unknown> = {}): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'a1',
        type: 'agent',
        position: { x: 200, y: 0 },
        data: {
          config: {
            model: 'scripted',
            task: 'post the reports',
            tools: ['http_fetch'],
            maxRetries: 0,
            stream: false,
            memory: { enabled: false },
            ...config,
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{a1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'a1' },
      { id: 'e2', source: 'a1', target: 'end' },
    ],
  };
}

/** A call of http_fetch that POSTs `body` to `<target>/<path>`. */
export const post = (target: CountingTarget, path: string, body: string) => ({
  name: 'http_fetch',
  arguments: { url: `${target.url}/${path}`, method: 'POST', body },
});

export async function durableHarness(
  kind: 'pglite' | 'postgres',
  fake: FakeOpenAi,
  target: CountingTarget,
  tdb?: TestDb,
): Promise<Harness> {
  return createHarness(kind, {
    tdb,
    llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
    fetch: createGuardedFetch({ allowlist: [new URL(target.url).host] }),
  });
}

export { startFakeOpenAi };
