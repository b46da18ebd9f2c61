/**
 * Guarantee: input that is wrong is said to be wrong, on the server users run — an unknown key (in a body, nested, or
 * in a node's config) is a 4xx with its JSON path and the close key it probably meant, never silently dropped (a
 * stripped `baseURL` once sent a key to api.openai.com); a draft keeps it as a problem instead; and a call the SSRF
 * guard refuses (an LLM on this machine, as with Ollama or vLLM) fails with SSRF_BLOCKED naming the HTTP_ALLOWLIST
 * entry that would allow it.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd } from './support/runs';

const { api, baseURL } = acceptance();
const self = new URL(baseURL);

const llmGraph = (config: Record<string, unknown>) => ({
  nodes: [
    node('start', 'start', { inputs: [] }),
    node('llm', 'llm', { model: 'gpt-4o-mini', userPrompt: 'hello', ...config }, 200),
    node('end', 'end', { outputs: [{ name: 'answer', value: '{{llm.output.text}}' }] }, 400),
  ],
  edges: chain('start', 'llm', 'end'),
});

describe('unknown keys', () => {
  it('refuses a nested unknown key in a body with its path and the key it meant, and stores nothing', async () => {
    const name = `Misspelt ${Date.now()}`;
    const r = await api.post('/api/credentials', {
      name,
      type: 'openai',
      data: { baseURL: 'https://api.deepseek.com/v1', apiKey: 'sk-test-000000000000' },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'UNKNOWN_KEY', path: 'data.baseURL' });
    expect(r.body.error.message).toContain('did you mean "baseUrl"');
    expect(r.body.error.details?.suggestion).toBe('baseUrl');
    const list = await api.expectStatus(api.get('/api/credentials'), 200);
    expect(list.map((c: any) => c.name)).not.toContain(name);
  });

  it('refuses a misspelt node config key on save, keeps it as a problem of a draft, and will not run it', async () => {
    const graph = llmGraph({ temprature: 0.2 });
    const saved = await api.post('/api/workflows', { name: `Typo ${Date.now()}`, graph });
    expect(saved.status, saved.text).toBe(400);
    expect(saved.body.error).toMatchObject({ code: 'UNKNOWN_KEY', path: 'graph.nodes[1].data.config.temprature' });
    expect(saved.body.error.message).toContain('did you mean "temperature"');

    const draft = await api.expectStatus(
      api.post('/api/workflows?draft=1', { name: `Draft ${Date.now()}`, graph }),
      201,
    );
    const problems = (await api.expectStatus(api.get(`/api/workflows/${draft.id}`), 200)).problems;
    expect(problems).toContainEqual(
      expect.objectContaining({ code: 'UNKNOWN_KEY', path: 'nodes[1].data.config.temprature' }),
    );
    const run = await api.post(`/api/workflows/${draft.id}/runs`, { inputs: {} });
    expect(run.status, run.text).toBeGreaterThanOrEqual(400);
    expect(run.status).toBeLessThan(500);
    expect(JSON.stringify(run.body.error)).toContain('temprature');
  });

  it('answers an unknown key in Chinese when asked, keeping the path', async () => {
    const r = await api.post('/api/knowledge-bases?lang=zh-CN', { name: 'x', chunksize: 300 });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'UNKNOWN_KEY', path: 'chunksize' });
    expect(r.body.error.message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('the SSRF guard', () => {
  it('fails an LLM on a loopback base URL with SSRF_BLOCKED and the HTTP_ALLOWLIST entry to add', async () => {
    // This server's own port: on this machine and not in HTTP_ALLOWLIST (a local Ollama would be refused the same).
    const target = `127.0.0.1:${self.port}`;
    const cred = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Local model ${Date.now()}`,
        type: 'openai',
        data: { baseUrl: `http://${target}/v1`, apiKey: 'sk-local-000000000000' },
      }),
      201,
    );
    const wf = await createWorkflow(api, `Local LLM ${Date.now()}`, llmGraph({ credentialId: cred.id }));
    const run = await runToEnd(api, wf);
    expect(run.status).toBe('failed');
    const llm = nodeOf(run, 'llm');
    expect(llm.error.code).toBe('SSRF_BLOCKED');
    expect(llm.error.message).toContain(`HTTP_ALLOWLIST=${target}`);
  });
});
