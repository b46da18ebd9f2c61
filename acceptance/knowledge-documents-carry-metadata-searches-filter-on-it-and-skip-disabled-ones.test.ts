/**
 * Guarantee: documents carry key–value metadata — given on upload (JSON or a multipart form) and replaced later —
 * and a search filters on it, over the API and in a workflow's knowledge node (its knowledge base named by a
 * variable): a value, one of several (`in`), a
 * range of numbers or of dates; a document switched off stays listed but is in no search until switched on again.
 * A filter or a patch that cannot be read is 400 with its path, and nothing changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd, until } from './support/runs';

const { api, is } = acceptance();
const stamp = Date.now();
const QUERY = 'refund policy';

describe.skipIf(is('queue'))('document metadata and filters', () => {
  let kbId: string;
  const ids: Record<string, string> = {};
  const search = async (body: object) => {
    const res = await api.expectStatus(api.post(`/api/knowledge-bases/${kbId}/search`, { query: QUERY, ...body }), 200);
    return res.hits.map((h: any) => h.title).sort();
  };

  beforeAll(async () => {
    const kb = await api.expectStatus(api.post('/api/knowledge-bases', { name: `Metadata ${stamp}` }), 201);
    kbId = kb.id;
    const docs = `/api/knowledge-bases/${kbId}/documents`;
    for (const [title, metadata] of [
      ['Refund policy 2024', { lang: 'en', year: 2024, published: '2024-05-01', region: 'EU' }],
      ['退款政策 refund policy', { lang: 'zh', year: 2026, published: '2026-11-30', region: 'CN' }],
    ] as const) {
      const d = await api.expectStatus(api.post(docs, { title, text: `${title}: refund policy text.`, metadata }), 202);
      ids[title] = d.id;
    }
    // A file, its metadata in the form beside it.
    const form = new FormData();
    form.append('file', new Blob(['Refund policy for partners, 2025.'], { type: 'text/plain' }), 'partners.txt');
    form.append('metadata', JSON.stringify({ lang: 'en', year: 2025, published: '2025-06-15', region: 'US' }));
    ids.partners = (await api.expectStatus(api.post(docs, form), 202)).id;
    await until(
      'the documents to be indexed',
      async () => {
        const list: any[] = await api.expectStatus(api.get(docs), 200);
        return list.length === 3 && list.every((d) => d.status === 'indexed') ? list : null;
      },
      120_000,
      250,
    );
  });

  it('lists each document with its metadata, switched on', async () => {
    const list: any[] = await api.expectStatus(api.get(`/api/knowledge-bases/${kbId}/documents`), 200);
    expect(list.find((d) => d.id === ids.partners)).toMatchObject({
      title: 'partners',
      enabled: true,
      metadata: { lang: 'en', year: 2025, published: '2025-06-15', region: 'US' },
    });
  });

  it('filters by a value, by one of several, and by ranges of numbers and dates', async () => {
    expect(await search({})).toEqual(['Refund policy 2024', 'partners', '退款政策 refund policy']);
    expect(await search({ filter: { lang: 'zh' } })).toEqual(['退款政策 refund policy']);
    expect(await search({ filter: { region: { in: ['EU', 'US'] } } })).toEqual(['Refund policy 2024', 'partners']);
    expect(await search({ filter: { year: { gte: 2025 } } })).toEqual(['partners', '退款政策 refund policy']);
    expect(await search({ filter: { lang: 'en', published: { gt: '2025-01-01' } } })).toEqual(['partners']);
    expect(await search({ filter: { lang: 'fr' } })).toEqual([]);
  });

  it('leaves a switched-off document out of every search until switched on, and filters on new metadata', async () => {
    const doc = `/api/knowledge-bases/${kbId}/documents/${ids['Refund policy 2024']}`;
    expect((await api.expectStatus(api.patch(doc, { enabled: false }), 200)).enabled).toBe(false);
    expect(await search({})).toEqual(['partners', '退款政策 refund policy']);
    expect(await search({ filter: { region: 'EU' } })).toEqual([]);
    await api.expectStatus(api.patch(doc, { enabled: true, metadata: { lang: 'en', region: 'UK' } }), 200);
    expect(await search({ filter: { region: 'UK' } })).toEqual(['Refund policy 2024']);
    expect(await search({ filter: { region: 'EU' } })).toEqual([]);
  });

  it('filters in a workflow’s knowledge node, whose knowledge base may come from a variable', async () => {
    const graph = {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'kb', type: 'string', required: true }] }),
        node('k', 'knowledge', { knowledgeBaseId: '{{inputs.kb}}', query: QUERY, filter: { year: { lt: 2026 } } }, 200),
        node('end', 'end', { outputs: [{ name: 'hits', value: '{{k.output.hits}}' }] }, 400),
      ],
      edges: chain('start', 'k', 'end'),
    };
    const run = await runToEnd(api, await createWorkflow(api, `Filtered retrieval ${stamp}`, graph), { kb: kbId });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(nodeOf(run, 'k').output.hits.map((h: any) => h.title)).toEqual(['partners']);
  });

  it('refuses a filter or a patch it cannot read, with the path, and changes nothing', async () => {
    const mixed = await api.post(`/api/knowledge-bases/${kbId}/search`, {
      query: QUERY,
      filter: { year: { gte: 2024, lt: '2026-01-01' } },
    });
    expect(mixed.status, mixed.text).toBe(400);
    expect(mixed.body.error.path).toBe('filter.year');
    const op = await api.post(`/api/knowledge-bases/${kbId}/search`, { query: QUERY, filter: { year: { after: 1 } } });
    expect(op.status, op.text).toBe(400);
    expect(op.body.error.path).toMatch(/^filter\.year/);
    const doc = `/api/knowledge-bases/${kbId}/documents/${ids.partners}`;
    const patch = await api.patch(doc, { metadata: { lang: ['en'] } });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.body.error.path).toBe('metadata.lang');
    const unknown = await api.patch(doc, { enable: false });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.error.path).toBe('enable');
    expect((await api.expectStatus(api.get(doc), 200)).metadata).toEqual({
      lang: 'en',
      year: 2025,
      published: '2025-06-15',
      region: 'US',
    });
  });
});
