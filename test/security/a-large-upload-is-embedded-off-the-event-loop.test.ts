/**
 * Guarantee: the offline embedding model runs in a worker thread, never on the event loop. While a document of some
 * hundred chunks (seven batches of 16) is being embedded, /api/health answers and a search of another knowledge base
 * (its query embedded by the same worker, between two batches of the upload) is served, both before the upload is
 * indexed; the model is never loaded in the main thread. Shown by order and by where the model lives, not by timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { createKnowledgeBase, getDocument, uploadText, waitForDocument } from './support/knowledge-api';

useFreshDataDir('paiflow-embed-off-loop-');
process.env.SEED_EXAMPLE = '0';

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
});

const paragraph = (i: number) =>
  `Clause ${i}. The supplier delivers part number ${1000 + i} within ${i % 30} days of the order, ` +
  `and replaces a defective unit free of charge during the first ${i % 5} years.`;

describe('embedding a large upload', () => {
  // ~110 chunks leave several batches of the upload after the search's query, which is all the order needs (400
  // chunks took 20–60 s to embed on a loaded machine). The limit is above the suite's for that machine's load.
  it('happens in a worker while the server keeps answering', { timeout: 180_000 }, async () => {
    const other = await createKnowledgeBase('Handbook');
    const pets = await uploadText(other, 'Pets at work', 'Dogs are welcome in the office on Fridays.');
    expect((await waitForDocument(other, pets)).status).toBe('indexed');

    const kbId = await createKnowledgeBase('Contracts', { chunkSize: 200, chunkOverlap: 0 });
    const big = await uploadText(
      kbId,
      'Supply contract',
      Array.from({ length: 120 }, (_, i) => paragraph(i)).join('\n\n'),
    );
    expect((await waitForDocument(kbId, big, (d) => d.status === 'embedding')).status).toBe('embedding');

    // The upload is being embedded. The server answers, and another search's query is embedded too …
    const h = await call(health, 'GET', '/api/health');
    expect(h.status).toBe(200);
    const hits = await call(search, 'POST', `/api/knowledge-bases/${other}/search`, {
      params: { id: other },
      body: { query: 'can I bring my dog', mode: 'vector' },
    });
    expect(hits.status, hits.text).toBe(200);
    expect(hits.body.hits[0]).toMatchObject({ documentId: pets });
    // … before the upload is done.
    const during = await getDocument(kbId, big);
    expect(during.status).toBe('embedding');
    expect(during.progress).toBeLessThan(1);

    const done = await waitForDocument(kbId, big);
    expect(done.status).toBe('indexed');
    expect(done.chunkCount).toBeGreaterThan(100);
    // The model lives in the worker thread only.
    expect((globalThis as { __paiflowUseLite?: unknown }).__paiflowUseLite).toBeUndefined();
    expectNoServerErrorsOrStacks();
  });
});
