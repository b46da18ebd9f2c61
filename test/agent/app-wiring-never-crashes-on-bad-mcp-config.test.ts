// Guarantees: the app's agent wiring reads MCP_SERVERS (a bad value becomes a warning for agents, never a failed
// app start), adapts the knowledge layer's embedders for memory, and shuts MCP servers down on close.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromKnowledgeEmbedder } from '@/engine/agent/memory/knowledge-embedder-adapter';
import { readConfig } from '@/lib/server/config';
import { createAgentServices } from '@/lib/server/agent/create-agent-services';

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;
const fakeStores = { runs: { getRun: async () => ({ workflowId: 'wf_1' }) }, memory: {} } as never;

describe('agent wiring', () => {
  it('a bad MCP_SERVERS is reported to agents that use MCP, not thrown', async () => {
    const w = createAgentServices(readConfig(env({})), fakeStores, { MCP_SERVERS: '[{"name": 1}]' });
    const listed = await w.services.mcp!.listTools();
    expect(listed.tools).toEqual([]);
    expect(listed.errors[0].message).toMatch(/MCP_SERVERS\[0\.name\]/);
    expect(await w.services.workflowOf!('run_x')).toBe('wf_1');
    expect(w.services.embedder!.id).toBe('use-lite');
    await w.close();
  });

  it('configured servers are listed lazily and closed with the app', async () => {
    const server = path.join(__dirname, 'fixtures', 'dynamic-tools-mcp-server.mjs');
    const w = createAgentServices(readConfig(env({})), fakeStores, {
      MCP_SERVERS: JSON.stringify([{ name: 'dyn', command: process.execPath, args: [server] }]),
    });
    expect((await w.services.mcp!.listTools()).tools.map((t) => t.name)).toContain('mcp__dyn__unlock');
    await w.close();
    expect((await w.services.mcp!.listTools()).errors[0].message).toMatch(/shut down/);
  });

  it('no MCP_SERVERS → no MCP source; MEMORY_EMBEDDING_MODEL picks the memory embedder (unusable → memory off)', () => {
    const model = { MEMORY_EMBEDDING_MODEL: 'openai:text-embedding-3-small' };
    const w = createAgentServices(readConfig(env({ OPENAI_API_KEY: 'k' })), fakeStores, model);
    expect(w.services.mcp).toBeUndefined();
    expect(w.services.embedder!.id).toBe('openai:text-embedding-3-small');
    const off = createAgentServices(readConfig(env({})), fakeStores, model);
    expect(off.services.embedder).toBeUndefined();
    expect(off.services.memory).toBeUndefined();
  });

  it('adapts a knowledge embedder (Float32Array vectors, async dimension) to the memory interface', async () => {
    const e = fromKnowledgeEmbedder({
      model: 'm1',
      label: 'test',
      dimension: async () => 3,
      embed: async (t) => t.map(() => new Float32Array([1, 0, 0])),
    });
    expect(e.id).toBe('m1');
    expect(await e.embed(['a', 'b'])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(e.dimension).toBe(3);
  });
});
