// Guarantees: MCP servers are real tool sources — a stdio server (@modelcontextprotocol/server-everything) is started
// lazily, initialised and listed, its tools reach the model as mcp__<server>__<tool> with the server's own schemas,
// calls from an Agent node return the server's answers; tools/list_changed refreshes the list; a server that fails to
// start or a tool that errors becomes a warning / tool error, never a crashed run; close() shuts servers down.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpManager, mcpToolName, parseMcpServers } from '@/engine/agent/mcp/mcp-manager';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, sleep, type AgentHarness } from './support/agent-harness';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const everythingBin = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const dynamicServer = path.join(here, 'fixtures', 'dynamic-tools-mcp-server.mjs');

const ctxFor = (timeoutMs = 10_000) => ({
  signal: AbortSignal.timeout(timeoutMs),
  fetch: globalThis.fetch as never,
  runId: 'r',
  nodeId: 'n',
  idempotencyKey: 'k',
  callId: 'c',
  timeoutMs,
});

describe('MCP tools', () => {
  let fake: FakeOpenAi;
  let h: AgentHarness;
  let mcp: McpManager;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    mcp = new McpManager(
      [
        { name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'] },
        { name: 'dyn', command: process.execPath, args: [dynamicServer] },
        { name: 'broken', command: path.join(here, 'fixtures', 'no-such-mcp-server') },
      ],
      { retryAfterMs: 60_000 },
    );
    h = await createAgentHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      mcp,
      memory: false,
    });
  });
  afterAll(async () => {
    await h?.close();
    await mcp?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("an Agent node lists and calls the everything server's echo and get-sum tools over stdio", async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'm1', name: 'mcp__everything__echo', arguments: { message: 'hello over MCP' } },
          { id: 'm2', name: 'mcp__everything__get-sum', arguments: { a: 2, b: 40 } },
        ],
      },
      { text: 'echoed and summed' },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['mcp__everything__echo', 'mcp__everything__get-sum'] }));
    const run = await h.runToEnd(wf);
    expect(run.error).toBeNull();
    expect(run.outputs?.answer).toBe('echoed and summed');

    const sent = fake.requests[0].tools.map((t: any) => t.function);
    expect(sent.map((f: any) => f.name)).toEqual(['mcp__everything__echo', 'mcp__everything__get-sum']);
    const echo = sent.find((f: any) => f.name === 'mcp__everything__echo');
    expect(echo.description).toMatch(/Echoes back the input/);
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });

    const results = fake.requests[1].messages.filter((m: any) => m.role === 'tool');
    expect(results).toEqual([
      { role: 'tool', tool_call_id: 'm1', content: 'Echo: hello over MCP' },
      { role: 'tool', tool_call_id: 'm2', content: 'The sum of 2 and 40 is 42.' },
    ]);
    const events = await h.events(run.id);
    expect(events.filter((e) => e.type === 'tool.result').map((e) => e.data.status)).toEqual(['ok', 'ok']);
  });

  it("a prefix selection offers all of a server's tools; invalid arguments come back as a tool error", async () => {
    fake.script(
      { toolCalls: [{ id: 'x1', name: 'mcp__everything__get-sum', arguments: { a: 'two' } }] },
      { text: 'noted the error' },
    );
    const run = await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['mcp__everything__*'] })));
    expect(run.status).toBe('succeeded');
    const names = fake.requests[0].tools.map((t: any) => t.function.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-env']),
    );
    expect(names.every((n: string) => n.startsWith('mcp__everything__'))).toBe(true);
    const msg = fake.requests[1].messages.find((m: any) => m.role === 'tool');
    expect(msg.content).toMatch(/^tool failed: /);
  });

  it('a server that cannot start is a warning, not a crash; its tools are simply not offered', async () => {
    fake.script(
      { toolCalls: [{ id: 'z1', name: 'mcp__broken__anything', arguments: {} }] },
      { text: 'fine without it' },
    );
    const run = await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['mcp__broken__*', 'calculator'] })));
    expect(run.status).toBe('succeeded');
    expect(fake.requests[0].tools.map((t: any) => t.function.name)).toEqual(['calculator']);
    const events = await h.events(run.id);
    const warnings = events
      .filter((e) => e.type === 'node.progress')
      .flatMap((e) => (e.data.warnings as string[]) ?? []);
    expect(warnings.some((w) => /MCP server "broken"/.test(w) && /failed to start/.test(w))).toBe(true);
    expect(events.find((e) => e.type === 'tool.denied')?.data.reason).toBe('not_allowed');
  });

  it('tools/list_changed refreshes the tool list; isError results and slow tools become tool errors', async () => {
    const before = await mcp.listTools({ servers: ['dyn'] });
    expect(before.errors).toEqual([]);
    expect(before.tools.map((t) => t.name)).toEqual(['mcp__dyn__fail', 'mcp__dyn__slow', 'mcp__dyn__unlock']);

    const unlock = before.tools.find((t) => t.name === 'mcp__dyn__unlock')!;
    expect(await unlock.execute({}, ctxFor())).toBe('unlocked');
    for (let i = 0; i < 250 && mcp.refreshCount('dyn') === 0; i++) await sleep(20);
    expect(mcp.refreshCount('dyn')).toBeGreaterThan(0);
    const after = await mcp.listTools({ servers: ['dyn'] });
    const secret = after.tools.find((t) => t.name === 'mcp__dyn__secret');
    expect(secret).toBeTruthy();
    expect(await secret!.execute({ word: 'open sesame' }, ctxFor())).toBe('secret says open sesame');

    const fail = after.tools.find((t) => t.name === 'mcp__dyn__fail')!;
    await expect(fail.execute({}, ctxFor())).rejects.toThrow('the fail tool failed on purpose');
    const slow = after.tools.find((t) => t.name === 'mcp__dyn__slow')!;
    await expect(slow.execute({ ms: 5000 }, ctxFor(200))).rejects.toThrow();
    // …and the connection is still usable afterwards.
    expect(await slow.execute({ ms: 1 }, ctxFor())).toBe('slept 1');
  });

  it('close() shuts every server down; later use reports it instead of hanging', async () => {
    const m = new McpManager([{ name: 'solo', command: process.execPath, args: [dynamicServer] }]);
    expect((await m.listTools()).tools.length).toBe(3);
    await m.close();
    const again = await m.listTools();
    expect(again.tools).toEqual([]);
    expect(again.errors[0].message).toMatch(/shut down/);
  });

  it('parses MCP_SERVERS and names tools safely', () => {
    expect(
      parseMcpServers(
        '[{"name":"fs","command":"npx","args":["-y","x"]},{"name":"remote","url":"https://mcp.example.com/mcp"}]',
      ),
    ).toEqual([
      { name: 'fs', command: 'npx', args: ['-y', 'x'] },
      { name: 'remote', url: 'https://mcp.example.com/mcp' },
    ]);
    expect(parseMcpServers(undefined)).toEqual([]);
    expect(() => parseMcpServers('{oops')).toThrow(/not valid JSON/);
    expect(() => parseMcpServers('[{"name":"a__b","command":"x"}]')).toThrow(/server names/);
    expect(() => parseMcpServers('[{"name":"a","command":"x"},{"name":"a","url":"http://h/"}]')).toThrow(/twice/);
    expect(mcpToolName('srv', 'files/read.v2')).toBe('mcp__srv__files_read_v2');
    const long = mcpToolName('srv', 'x'.repeat(100));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^mcp__srv__x+_[0-9a-f]{8}$/);
  });
});
