/**
 * Guarantee: on the server users run, a knowledge base indexes uploads in every format the README lists (.txt .md
 * .html .pdf .docx .csv, several files in one request, and JSON text), in English and in Chinese; search answers 200
 * with cited hits in every mode; the knowledge node and the "Knowledge base Q&A" template use them in runs. This is the
 * journey that failed for every user of the built app (a bundled module path) while every source-level test passed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../test/knowledge/support/make-docx';
import { makePdf } from '../test/knowledge/support/make-pdf';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd, until } from './support/runs';

const { api, is } = acceptance();

const FILES: Array<{ name: string; type: string; body: string | Uint8Array; title: string; find: string }> = [
  {
    name: 'returns.txt',
    type: 'text/plain',
    title: 'returns',
    body: 'Customers may return an unused item within 30 days of delivery for a full refund.',
    find: 'return an item within how many days',
  },
  {
    name: '退款政策.txt',
    type: 'text/plain',
    title: '退款政策',
    body: '退款申请审核通过后，款项将在七个工作日内原路退回到您的支付账户。',
    find: '退款多久到账',
  },
  {
    name: 'shipping.md',
    type: 'text/markdown',
    title: 'shipping',
    body: '# Shipping\n\nStandard parcels arrive in **3 to 5 business days**; express parcels arrive the next day.',
    find: 'how long does express shipping take',
  },
  {
    name: 'warranty.html',
    type: 'text/html',
    title: 'warranty',
    body: '<html><body><h1>Warranty</h1><p>Every kettle carries a two year warranty against defects.</p></body></html>',
    find: 'kettle warranty',
  },
  {
    name: 'invoices.pdf',
    type: 'application/pdf',
    title: 'invoices',
    body: makePdf([['Invoices are emailed as PDF files on the first day of each month.']]),
    find: 'when are invoices emailed',
  },
  {
    name: 'passwords.docx',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    title: 'passwords',
    body: makeDocx([{ text: 'To reset a forgotten password, open Settings and choose Reset password.' }]),
    find: 'reset forgotten password',
  },
  {
    name: 'offices.csv',
    type: 'text/csv',
    title: 'offices',
    body: 'city,phone\nShenzhen,+86 755 1234 5678\n深圳南山,0755-8888-0000\n',
    find: 'Shenzhen phone',
  },
];

async function indexed(kbId: string, count: number) {
  return until(
    `${count} documents of ${kbId} to finish indexing`,
    async () => {
      const docs = await api.expectStatus(api.get(`/api/knowledge-bases/${kbId}/documents`), 200);
      const settled = docs.filter((d: any) => d.status === 'indexed' || d.status === 'failed');
      return docs.length === count && settled.length === count ? docs : null;
    },
    120_000,
    250,
  );
}

describe.skipIf(is('queue'))('knowledge bases on the built app', () => {
  let kbId: string;
  let docs: any[];

  beforeAll(async () => {
    const kb = await api.expectStatus(api.post('/api/knowledge-bases', { name: `Help centre ${Date.now()}` }), 201);
    kbId = kb.id;
    // Two files in one request, then one request per file, then text as JSON (English and Chinese).
    const [first, second, ...rest] = FILES;
    const both = new FormData();
    for (const f of [first, second]) both.append('file', new Blob([f.body as BlobPart], { type: f.type }), f.name);
    await api.expectStatus(api.post(`/api/knowledge-bases/${kbId}/documents`, both), 202);
    for (const f of rest) {
      const form = new FormData();
      form.append('file', new Blob([f.body as BlobPart], { type: f.type }), f.name);
      await api.expectStatus(api.post(`/api/knowledge-bases/${kbId}/documents`, form), 202);
    }
    await api.expectStatus(
      api.post(`/api/knowledge-bases/${kbId}/documents`, {
        title: 'Opening hours',
        text: 'The support desk is open from 9 am to 6 pm, Monday to Friday.',
      }),
      202,
    );
    await api.expectStatus(
      api.post(`/api/knowledge-bases/${kbId}/documents`, {
        title: '发票说明',
        text: '电子发票会在订单完成后二十四小时内发送到您的邮箱。',
      }),
      202,
    );
    docs = await indexed(kbId, FILES.length + 2);
  });

  it('indexes every format, English and Chinese, several files in one upload', () => {
    const byTitle = Object.fromEntries(docs.map((d) => [d.title, d]));
    for (const title of [...FILES.map((f) => f.title), 'Opening hours', '发票说明']) {
      expect(byTitle[title]?.status, `${title}: ${JSON.stringify(byTitle[title]?.error)}`).toBe('indexed');
      expect(byTitle[title].chunkCount).toBeGreaterThan(0);
    }
    expect(byTitle.invoices.pages).toBe(1);
  });

  it('answers a search in every mode with cited hits from the right document', async () => {
    for (const f of FILES.filter((x) => !/[\u4e00-\u9fff]/.test(x.find))) {
      for (const mode of ['hybrid', 'bm25', 'vector']) {
        const r = await api.expectStatus(
          api.post(`/api/knowledge-bases/${kbId}/search`, { query: f.find, topK: 3, mode }),
          200,
        );
        expect(r.hits.length, `${mode}: ${f.find}`).toBeGreaterThan(0);
        expect(r.hits[0]).toMatchObject({ citation: '[1]', title: f.title });
        expect(typeof r.hits[0].score).toBe('number');
        expect(r.hits[0].text.length).toBeGreaterThan(0);
      }
    }
  });

  it('finds Chinese documents for Chinese questions, by BM25, and says the vector model cannot read them', async () => {
    const hybrid = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kbId}/search`, { query: '退款多久到账', topK: 3 }),
      200,
    );
    expect(hybrid.hits[0]).toMatchObject({ citation: '[1]', title: '退款政策', knn: null });
    expect(hybrid.notice?.code).toBe('EMBEDDER_DOES_NOT_COVER_QUERY');
    const invoices = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kbId}/search`, { query: '电子发票什么时候发送', mode: 'bm25' }),
      200,
    );
    expect(invoices.hits[0].title).toBe('发票说明');
    const vector = await api.expectStatus(
      api.post(`/api/knowledge-bases/${kbId}/search`, { query: '退款多久到账', mode: 'vector' }),
      200,
    );
    expect(vector.hits).toEqual([]);
    expect(vector.notice.code).toBe('EMBEDDER_DOES_NOT_COVER_QUERY');
  });

  it('refuses a bad search with a 4xx and a code, never a 500', async () => {
    const empty = await api.post(`/api/knowledge-bases/${kbId}/search`, { query: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBeTruthy();
    const missing = await api.post('/api/knowledge-bases/kb_does_not_exist/search', { query: 'refund' });
    expect(missing.status).toBe(404);
  });

  it('feeds a knowledge node in a run: hits with citations and a context block', async () => {
    const wf = await createWorkflow(api, `Knowledge node ${Date.now()}`, {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'q', type: 'string', required: true }] }),
        node('kb', 'knowledge', { knowledgeBaseId: kbId, query: '{{inputs.q}}', topK: 2 }, 200),
        node('end', 'end', { outputs: [{ name: 'hits', value: '{{kb.output.hits}}' }] }, 400),
      ],
      edges: chain('start', 'kb', 'end'),
    });
    const run = await runToEnd(api, wf, { q: 'How many days do I have to return an item?' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const kb = nodeOf(run, 'kb');
    expect(kb.output.hits[0]).toMatchObject({ citation: '[1]', title: 'returns' });
    expect(kb.output.context).toContain('[1]');
    expect(run.outputs.hits[0].title).toBe('returns');
  });

  it('runs the Knowledge base Q&A template to succeeded, citing the passage it used', async () => {
    const created = await api.expectStatus(
      api.post('/api/workflows', { templateId: 'rag-qa', name: `RAG ${Date.now()}` }),
      201,
    );
    const graph = created.graph;
    graph.nodes.find((n: any) => n.type === 'knowledge').data.config.knowledgeBaseId = kbId;
    await api.expectStatus(api.put(`/api/workflows/${created.id}`, { graph }), 200);
    const run = await runToEnd(api, created.id, { question: 'How long do customers have to return an item?' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs.sources.length).toBeGreaterThan(0);
    expect(run.outputs.sources[0].title).toBe('returns');
    expect(run.outputs.found).toBe(true);
    expect(run.outputs.answer).toMatch(/\[1\]/);
  });
});

describe.runIf(is('queue'))('knowledge bases in queue mode without Elasticsearch', () => {
  it('refuses a new knowledge base with 409 KNOWLEDGE_NEEDS_ELASTICSEARCH, as the README says', async () => {
    const r = await api.post('/api/knowledge-bases', { name: `Queue KB ${Date.now()}` });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.code).toBe('KNOWLEDGE_NEEDS_ELASTICSEARCH');
  });
});
