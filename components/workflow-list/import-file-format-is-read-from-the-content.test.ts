// Guarantees: a dropped or picked file is recognised by its content, whatever its name: a PaiFlow export, an n8n
// workflow (also n8n's CLI export, a list of one) and a Dify DSL export (YAML, or the same shape as JSON) each get the
// import body the API takes for them; anything else is recognised as none of them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importRequestFor } from './import-file';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../test/fixtures/import', name), 'utf8');

describe('the import format of a file', () => {
  it('is PaiFlow for a PaiFlow export', () => {
    const doc = { format: 'paiflow.workflow', formatVersion: 2, workflow: { name: 'x', graph: {} } };
    expect(importRequestFor(JSON.stringify(doc))).toEqual({ format: 'paiflow', body: doc });
  });

  it('is n8n for an n8n export, as an object or a list of one', () => {
    const text = fixture('n8n-article-helper.json');
    expect(importRequestFor(text)).toEqual({ format: 'n8n', body: { format: 'n8n', content: JSON.parse(text) } });
    expect(importRequestFor(`[${text}]`)?.format).toBe('n8n');
  });

  it('is Dify for a DSL export, sent as its text', () => {
    const text = fixture('dify-advanced-chat-support.yml');
    expect(importRequestFor(text)).toEqual({ format: 'dify', body: { format: 'dify', content: text } });
    const json = JSON.stringify({ app: { mode: 'workflow' }, workflow: { graph: { nodes: [] } } });
    expect(importRequestFor(json)).toEqual({ format: 'dify', body: { format: 'dify', content: json } });
  });

  it('is none of them for other text', () => {
    for (const text of ['{ not json', '{"a": 1}', 'just: yaml\nof: something', '[]', ''])
      expect(importRequestFor(text), text).toBeNull();
  });
});
