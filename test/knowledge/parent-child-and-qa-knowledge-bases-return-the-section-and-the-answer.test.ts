/**
 * Guarantees of chunking per knowledge base:
 * - parent–child: small chunks (at most chunkSize) are matched, each inside one parent section; parents are cut at
 *   Markdown headings and are at most parentChunkSize; a hit returns the whole section with the child that matched,
 *   and children of one section make one hit;
 * - Q&A: a .csv (named columns in English or Chinese, or the first two) or .jsonl of pairs becomes one chunk per
 *   question; a hit returns the answer with its question (and the LLM context block prints both); a row without its
 *   answer fails the document naming the row; another file type is refused at upload with QA_DOCUMENT_TYPE;
 * - the preview gives the chunks a file would make, and keeps nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedKnowledgeStore } from '@/engine/knowledge/embedded-store';
import { formatContext } from '@/engine/knowledge/format-context';
import { prepareDocument } from '@/engine/knowledge/prepare-document';
import { qaPairs } from '@/engine/knowledge/qa-pairs';
import { KnowledgeBaseService } from '@/engine/knowledge/service';
import type { Embedder } from '@/engine/knowledge/types';
import { PrismaKnowledgeCatalog } from '@/engine/store/prisma/knowledge-catalog';
import { openTestDb, type TestDb } from '../support/databases';

const limits = { maxChars: 1_000_000, maxInflatedBytes: 1e8, maxPages: 100, maxChunks: 10_000 };

const sentence = (topic: string, i: number) => `The ${topic} rule number ${i} says what to do about ${topic}.`;
const section = (topic: string, n: number) => Array.from({ length: n }, (_, i) => sentence(topic, i)).join(' ');
const GUIDE = `# Guide\n\n## Refunds\n\n${section('refund', 12)}\n\n## Shipping\n\n${section('shipping', 12)}\n`;

/** Bag-of-letters vectors: enough to rank, no model needed. */
const letters: Embedder = {
  model: 'letters',
  label: 'letters',
  dimension: async () => 26,
  embed: async (texts) =>
    texts.map((t) => {
      const v = new Float32Array(26);
      for (const ch of t.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]++;
      return v;
    }),
};

describe('parent–child chunks', () => {
  it('cuts children of at most chunkSize inside parents cut at headings and at most parentChunkSize', async () => {
    const doc = await prepareDocument({
      text: GUIDE,
      mime: 'text/markdown',
      chunkSize: 150,
      chunkOverlap: 0,
      chunking: 'parent-child',
      parentChunkSize: 500,
      limits,
    });
    const n = doc.starts.length;
    expect(n).toBeGreaterThan(6);
    const refundsAt = GUIDE.indexOf('## Refunds');
    const shippingAt = GUIDE.indexOf('## Shipping');
    for (let i = 0; i < n; i++) {
      expect(doc.ends[i] - doc.starts[i]).toBeLessThanOrEqual(150);
      const [ps, pe] = [doc.contextStarts![i], doc.contextEnds![i]];
      if (ps < 0) continue;
      expect(ps).toBeLessThanOrEqual(doc.starts[i]);
      expect(pe).toBeGreaterThanOrEqual(doc.ends[i]);
      expect(pe - ps).toBeLessThanOrEqual(500);
      // No parent spans a heading.
      expect(ps < shippingAt && pe > shippingAt).toBe(false);
      expect(ps < refundsAt && pe > refundsAt).toBe(false);
    }
    expect(doc.contextKind).toBe('parent');
  });
});

describe('question–answer pairs', () => {
  it('reads Chinese-named CSV columns, unnamed ones and JSONL, and names a row without its answer', async () => {
    const named = await qaPairs('编号,问题,答案\n1,怎么退款？,在订单页申请，五个工作日内退回。\n', 'text/csv', 1e6);
    expect(named.text.slice(named.questions[0].start, named.questions[0].end)).toBe('怎么退款？');
    expect(named.text.slice(named.answers[0].start, named.answers[0].end)).toBe('在订单页申请，五个工作日内退回。');
    const bare = await qaPairs('How long is shipping?,Three days.\nDo you ship abroad?,Yes.\n', 'text/csv', 1e6);
    expect(bare.questions).toHaveLength(2);
    const jsonl = await qaPairs(
      '{"q":"Hours?","a":"9 to 5"}\n\n{"question":"Phone?","answer":"123"}\n',
      'application/jsonl',
      1e6,
    );
    expect(jsonl.text).toBe('Hours?\n9 to 5\n\nPhone?\n123\n\n');
    await expect(qaPairs('question,answer\nA?,yes\nB?,\n', 'text/csv', 1e6)).rejects.toMatchObject({
      code: 'DOCUMENT_PARSE_FAILED',
      message: expect.stringContaining('row 3 has a question but no answer'),
    });
    await expect(qaPairs('{"q":"x"\n', 'application/jsonl', 1e6)).rejects.toMatchObject({
      message: expect.stringContaining('line 1 is not JSON'),
    });
  });
});

describe('knowledge bases by chunking, through the service', () => {
  let tdb: TestDb;
  let dir: string;
  let service: KnowledgeBaseService;

  beforeAll(async () => {
    tdb = await openTestDb('pglite');
    dir = mkdtempSync(path.join(tmpdir(), 'paiflow-chunking-'));
    service = new KnowledgeBaseService({
      catalog: new PrismaKnowledgeCatalog(tdb.db.prisma),
      store: new EmbeddedKnowledgeStore({ dir }),
      embedders: () => letters,
      defaultEmbeddingModel: 'letters',
    });
  });

  afterAll(async () => {
    await service?.close();
    await tdb?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parent–child: a hit reads the whole section, with the child that matched, once per section', async () => {
    const kb = await service.createKnowledgeBase({
      name: 'Guide',
      chunkSize: 150,
      chunkOverlap: 0,
      chunking: 'parent-child',
      parentChunkSize: 2000,
    });
    expect(kb).toMatchObject({ chunking: 'parent-child', parentChunkSize: 2000 });
    await service.addDocument(kb.id, { title: 'Guide', text: GUIDE, mime: 'text/markdown' });
    await service.whenIdle();
    const { hits } = await service.search(kb.id, { query: 'refund rule', topK: 3, mode: 'bm25' });
    expect(hits[0].text).toContain(section('refund', 12));
    expect(hits[0].text).not.toContain('shipping');
    expect(hits[0].matched!.length).toBeLessThanOrEqual(150);
    expect(hits[0].text).toContain(hits[0].matched!);
    // Every refund child matches: they fold into one hit, so the next hit is another section.
    expect(hits.filter((h) => h.text.includes('refund rule number 0'))).toHaveLength(1);
  });

  it('Q&A: a hit is the answer with its question; other file types are refused at upload', async () => {
    const kb = await service.createKnowledgeBase({ name: 'FAQ', chunking: 'qa' });
    const csv = 'question,answer\nHow long do refunds take?,Five working days.\nDo you ship abroad?,Yes, worldwide.\n';
    await service.addDocument(kb.id, { title: 'FAQ', bytes: new TextEncoder().encode(csv), filename: 'faq.csv' });
    await service.whenIdle();
    const [doc] = await service.listDocuments(kb.id);
    expect(doc).toMatchObject({ status: 'indexed', chunkCount: 2 });
    const { hits } = await service.search(kb.id, { query: 'refunds', topK: 1, mode: 'bm25' });
    expect(hits[0]).toMatchObject({ question: 'How long do refunds take?', text: 'Five working days.' });
    expect(formatContext(hits)).toBe('[1] FAQ\nHow long do refunds take?\nFive working days.');
    // Only the question is searched: a word of an answer alone finds nothing.
    expect((await service.search(kb.id, { query: 'worldwide', mode: 'bm25' })).hits).toEqual([]);
    await expect(
      service.addDocument(kb.id, { title: 'Notes', bytes: new TextEncoder().encode('# x'), filename: 'notes.md' }),
    ).rejects.toMatchObject({ code: 'QA_DOCUMENT_TYPE', path: 'file' });
    expect(await service.listDocuments(kb.id)).toHaveLength(1);
  });

  it('previews the chunks a file would make, and keeps nothing', async () => {
    const kb = await service.createKnowledgeBase({
      name: 'Preview',
      chunkSize: 150,
      chunkOverlap: 0,
      chunking: 'parent-child',
    });
    const preview = await service.previewChunks(kb.id, { title: 'Guide', text: GUIDE, mime: 'text/markdown' });
    expect(preview.total).toBe(preview.chunks.length);
    expect(preview.characters).toBe(GUIDE.length);
    expect(preview.chunks[1]).toMatchObject({ context: { kind: 'parent' } });
    expect(preview.chunks[1].context!.text).toContain(preview.chunks[1].text);
    expect(await service.listDocuments(kb.id)).toEqual([]);
    expect(await service.store.count(kb.id)).toBe(0);
  });

  it('refuses a parent size without parent–child chunking, or below the chunk size, naming the field', async () => {
    await expect(service.createKnowledgeBase({ name: 'x', parentChunkSize: 1000 })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ['parentChunkSize'] })],
    });
    await expect(
      service.createKnowledgeBase({ name: 'x', chunking: 'parent-child', chunkSize: 800, parentChunkSize: 400 }),
    ).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ['parentChunkSize'] })] });
  });
});
