/**
 * The publish panel's pure parts: sample inputs, the three snippets, the MCP client configurations, the draft-changes
 * summary and origin parsing.
 */
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/messages';
import { parseOrigins } from './cors-section';
import { buildMcpConfig, buildSnippet, KEY_PLACEHOLDER, MCP_URL_PLACEHOLDER, sampleInputs, toPython } from './snippets';
import { summarizeDiff } from './versions-section';

const graph = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: {
        config: {
          inputs: [
            { name: 'name', type: 'string', required: true },
            { name: 'n', type: 'number' },
            { name: 'flag', type: 'boolean' },
            { name: 'obj', type: 'object' },
            { name: 'list', type: 'array' },
            { name: 'greeting', type: 'string', default: 'hi' },
          ],
        },
      },
    },
    { id: 'end', type: 'end', position: { x: 0, y: 0 }, data: { config: {} } },
  ],
  edges: [],
};

describe('publish snippets', () => {
  it('samples one value per declared input type (defaults win)', () => {
    expect(sampleInputs(graph)).toEqual({ name: '…', n: 1, flag: true, obj: {}, list: [], greeting: 'hi' });
    expect(sampleInputs({ nodes: [] })).toEqual({});
    expect(sampleInputs(null)).toEqual({});
  });

  it('builds curl with the endpoint, the key and a shell-safe body', () => {
    const s = buildSnippet('curl', {
      endpoint: 'http://h/api/v1/workflows/x/run',
      apiKey: 'pf_abc',
      inputs: { q: "it's" },
    });
    expect(s).toContain("curl -X POST 'http://h/api/v1/workflows/x/run'");
    expect(s).toContain("-H 'Authorization: Bearer pf_abc'");
    expect(s).toContain(`-d '{"inputs":{"q":"it'\\''s"}}'`);
  });

  it('falls back to the key placeholder; JS and Python carry the same body', () => {
    const js = buildSnippet('js', { endpoint: 'http://h/run', apiKey: null, inputs: { a: true, b: null } });
    expect(js).toContain(`Authorization: "Bearer ${KEY_PLACEHOLDER}"`);
    expect(js).toContain('"a": true');
    const py = buildSnippet('python', { endpoint: 'http://h/run', apiKey: null, inputs: { a: true, b: null } });
    expect(py).toContain('import requests');
    expect(py).toContain('"a": True');
    expect(py).toContain('"b": None');
    expect(toPython({ x: [1, false], y: {} })).toBe(
      '{\n    "x": [\n        1,\n        False,\n    ],\n    "y": {},\n}',
    );
  });
});

describe('MCP client configurations', () => {
  const opts = { url: 'https://flows.example/api/mcp', apiKey: 'pf_abc', slug: 'support-triage' };

  it('Claude Desktop: the mcp-remote bridge, with the key in env and no space inside args', () => {
    const cfg = JSON.parse(buildMcpConfig('claude-desktop', opts));
    expect(cfg).toEqual({
      mcpServers: {
        'paiflow-support-triage': {
          command: 'npx',
          args: ['-y', 'mcp-remote', 'https://flows.example/api/mcp', '--header', 'Authorization:${PAIFLOW_AUTH}'],
          env: { PAIFLOW_AUTH: 'Bearer pf_abc' },
        },
      },
    });
    for (const a of cfg.mcpServers['paiflow-support-triage'].args) expect(a).not.toContain(' ');
  });

  it('Claude Desktop: plain http to another host adds --allow-http; localhost does not need it', () => {
    const lan = JSON.parse(buildMcpConfig('claude-desktop', { ...opts, url: 'http://10.0.0.5:3000/api/mcp' }));
    expect(lan.mcpServers['paiflow-support-triage'].args).toContain('--allow-http');
    const local = JSON.parse(buildMcpConfig('claude-desktop', { ...opts, url: 'http://localhost:3000/api/mcp' }));
    expect(local.mcpServers['paiflow-support-triage'].args).not.toContain('--allow-http');
  });

  it('Cursor: url and headers (Streamable HTTP, no bridge)', () => {
    expect(JSON.parse(buildMcpConfig('cursor', opts))).toEqual({
      mcpServers: {
        'paiflow-support-triage': {
          url: 'https://flows.example/api/mcp',
          headers: { Authorization: 'Bearer pf_abc' },
        },
      },
    });
  });

  it('falls back to placeholders before publishing and without a key', () => {
    const cfg = JSON.parse(buildMcpConfig('cursor', { url: null, apiKey: null, slug: null }));
    expect(cfg).toEqual({
      mcpServers: { paiflow: { url: MCP_URL_PLACEHOLDER, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } } },
    });
  });
});

describe('publish panel helpers', () => {
  it('summarises what the draft changed since a version, in English and in Chinese', () => {
    const translator = (locale: 'en' | 'zh-CN') =>
      createTranslator({ locale, messages: MESSAGES[locale], namespace: 'publish.diff' }) as unknown as (
        key: string,
        values?: { count: number },
      ) => string;
    const en = translator('en');
    const none = {
      added: [],
      removed: [],
      changed: [],
      edgesAdded: 0,
      edgesRemoved: 0,
      engineChanged: false,
      conversationVariablesChanged: false,
      same: true,
    };
    const changes = { ...none, same: false, added: ['a', 'b'], changed: ['c'], edgesRemoved: 1, engineChanged: true };
    expect(summarizeDiff(none, en)).toBe('no changes');
    expect(summarizeDiff(changes, en)).toBe('2 nodes added, 1 node changed, 1 edge removed, engine changed');
    expect(summarizeDiff(changes, translator('zh-CN'))).toBe('新增 2 个节点，修改 1 个节点，删除 1 条连线，引擎已更改');
  });

  it('reads one origin per line, ignoring blanks and spaces', () => {
    expect(parseOrigins(' https://a.example \n\nhttp://localhost:5173\n')).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(parseOrigins('')).toEqual([]);
  });
});
