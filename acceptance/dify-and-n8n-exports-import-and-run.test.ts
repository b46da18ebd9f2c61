/**
 * Guarantee: on the production server, a Dify DSL export (YAML) and an n8n workflow export (JSON) sent to
 * POST /api/workflows/import become workflows with no problem to fix and an import report, and each runs offline to
 * a succeeded result with the outputs its source workflow would give (the demo model standing in for the LLM).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { runToEnd } from './support/runs';

const { api } = acceptance();
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../test/fixtures/import', name), 'utf8');

describe('Dify and n8n exports import and run', () => {
  it('a Dify workflow export imports and runs to its outputs', async () => {
    const wf = await api.expectStatus(
      api.post('/api/workflows/import', { format: 'dify', content: fixture('dify-workflow-article-helper.yml') }),
      201,
    );
    expect(wf.problems).toEqual([]);
    expect(wf.importReport).toMatchObject({ format: 'dify', dropped: [] });
    const run = await runToEnd(api, wf.id, { topic: 'Technology trends', count: 2 });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs.outline).toEqual(['- Technology trends point 1', '- Technology trends point 2']);
    expect(run.outputs.size).toBe('Short note');
    expect(run.outputs.intro).toMatch(/^\[PaiFlow demo model/);
  });

  it('an n8n workflow export imports and runs from the webhook inputs to the response', async () => {
    const wf = await api.expectStatus(
      api.post('/api/workflows/import', { format: 'n8n', content: fixture('n8n-article-helper.json') }),
      201,
    );
    expect(wf.problems).toEqual([]);
    expect(wf.importReport.mapped.find((e: any) => e.title === 'Webhook').trigger.type).toBe('webhook');
    const run = await runToEnd(api, wf.id, { body: { name: 'Grace', topic: 'databases', count: 1 } });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    // The Switch's fallback: the Code node describes the topic, whose words are counted.
    expect(run.outputs).toMatchObject({ name: 'Grace', words: 4 });
    expect(run.outputs.reply).toMatch(/^\[PaiFlow demo model/);
    expect(run.nodes.find((n: any) => n.nodeId === 'write_poem').status).toBe('skipped');
  });
});
