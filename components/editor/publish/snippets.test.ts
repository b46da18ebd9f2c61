/** The publish panel's pure parts: sample inputs, the three snippets, the draft-changes summary and origin parsing. */
import { describe, expect, it } from 'vitest';
import { parseOrigins } from './cors-section';
import { buildSnippet, KEY_PLACEHOLDER, sampleInputs, toPython } from './snippets';
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

describe('publish panel helpers', () => {
  it('summarises what the draft changed since a version', () => {
    const none = {
      added: [],
      removed: [],
      changed: [],
      edgesAdded: 0,
      edgesRemoved: 0,
      engineChanged: false,
      same: true,
    };
    expect(summarizeDiff(none)).toBe('no changes');
    expect(
      summarizeDiff({ ...none, same: false, added: ['a', 'b'], changed: ['c'], edgesRemoved: 1, engineChanged: true }),
    ).toBe('2 nodes added, 1 node changed, 1 edge removed, engine changed');
  });

  it('reads one origin per line, ignoring blanks and spaces', () => {
    expect(parseOrigins(' https://a.example \n\nhttp://localhost:5173\n')).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(parseOrigins('')).toEqual([]);
  });
});
