// Guarantees: importing a workflow whose name the workspace already has gives the copy "name (2)", then "name (3)"
// (an imported "name (2)" counts on from "name"), never a second workflow of the same name; names in another workspace
// do not count; a numbered name still fits the 200-character limit. Real app on the embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { getApp } from '@/lib/server/app';
import { firstFreeName } from '@/lib/server/workflows/unique-name';
import { call, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-import-names-');
process.env.SEED_EXAMPLE = '0';

let doc: { workflow: { name: string } } & Record<string, unknown>;
const importAs = async (name: string, headers: Record<string, string> = {}) => {
  const a = await call(importWf, 'POST', '/api/workflows/import', {
    body: { ...doc, workflow: { ...doc.workflow, name } },
    headers,
  });
  expect(a.status, a.text).toBe(201);
  return a.body.name as string;
};

beforeAll(async () => {
  await getApp();
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Support bot', graph: simpleGraph() } });
  expect(wf.status, wf.text).toBe(201);
  const id = wf.body.id;
  doc = (await call(exportWf, 'GET', `/api/workflows/${id}/export`, { params: { id } })).body;
  expect(doc.workflow.name).toBe('Support bot');
});

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

describe('importing a workflow', () => {
  it('numbers a copy of an existing name, and counts on from a numbered one', async () => {
    expect(await importAs('Support bot')).toBe('Support bot (2)');
    expect(await importAs('Support bot')).toBe('Support bot (3)');
    expect(await importAs('Support bot (2)')).toBe('Support bot (4)');
    expect(await importAs('A new name')).toBe('A new name');
    // "Support bot 2" and "Support bots" are other names, not copies.
    expect(await importAs('Support bots')).toBe('Support bots');
    const names = (await call(listWf, 'GET', '/api/workflows')).body.map((w: { name: string }) => w.name);
    expect(names.filter((n: string) => n.startsWith('Support bot')).sort()).toEqual([
      'Support bot',
      'Support bot (2)',
      'Support bot (3)',
      'Support bot (4)',
      'Support bots',
    ]);
  });

  it('does not count the names of another workspace', async () => {
    const ws = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'Other' } });
    expect(ws.status, ws.text).toBe(201);
    expect(await importAs('Support bot', { 'x-workspace-id': ws.body.id })).toBe('Support bot');
  });

  it('keeps a numbered name within 200 characters', async () => {
    const long = 'L'.repeat(200);
    expect(await importAs(long)).toBe(long);
    const copy = await importAs(long);
    expect(copy).toBe(`${'L'.repeat(196)} (2)`);
    expect(firstFreeName(long, new Set([long, copy]))).toBe(`${'L'.repeat(196)} (3)`);
  });
});
