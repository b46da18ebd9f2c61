/**
 * Guarantee (HTTP contract): on a knowledge base with the offline embedder, a Chinese document and a Chinese question
 * in a natural sentence find each other through POST /api/knowledge-bases/:id/search with every hit's knn null and a
 * notice saying why; GET /api/knowledge-bases/:id says under `embedder` that the model does not cover Chinese, how many
 * chunks it cannot read, and which multilingual embedder to use instead; an English knowledge base gets no notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getKb } from '@/app/api/knowledge-bases/[id]/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { createKnowledgeBase, searchKb, uploadFile, waitSettled } from './support/upload-helpers';

useFreshDataDir('paiflow-zh-http-');
process.env.SEED_EXAMPLE = '0';

const REFUNDS =
  '购买后7天内未使用的订阅可以申请全额退款。退款申请提交后，财务团队会在3个工作日内审核。' +
  '审核通过后，款项将原路退回到您的支付账户，银行到账通常需要5到10个工作日。';
const INVITES = '管理员可以在成员管理页面邀请同事加入团队。邀请链接在72小时内有效。';

describe('Chinese search over HTTP', () => {
  let zh = '';
  let en = '';
  beforeAll(async () => {
    await getApp();
    zh = await createKnowledgeBase('帮助中心');
    en = await createKnowledgeBase('Handbook');
    expect((await uploadFile(zh, '退款政策.txt', 'text/plain', REFUNDS)).status).toBe(202);
    expect((await uploadFile(zh, '邀请团队成员.txt', 'text/plain', INVITES)).status).toBe(202);
    expect((await uploadFile(en, 'refunds.txt', 'text/plain', 'Refunds are paid within ten days.')).status).toBe(202);
    await waitSettled(zh, 180_000);
    await waitSettled(en, 180_000);
  }, 240_000);
  afterAll(async () => {
    await (await getApp()).close();
  });

  it('a question without spaces finds its document by BM25, with knn null and a notice', async () => {
    const a = await searchKb(zh, '申请退款后多久能到账');
    expect(a.status, a.text).toBe(200);
    expect(a.body.mode).toBe('hybrid');
    expect(a.body.hits[0]).toMatchObject({ citation: '[1]', title: '退款政策', knn: null });
    expect(a.body.hits.every((h: { knn: unknown }) => h.knn === null)).toBe(true);
    expect(a.body.notice).toMatchObject({ code: 'EMBEDDER_DOES_NOT_COVER_QUERY' });
    const v = await searchKb(zh, '申请退款后多久能到账', { mode: 'vector' });
    expect(v.body).toMatchObject({ hits: [], notice: { code: 'EMBEDDER_DOES_NOT_COVER_QUERY' } });
    const english = await searchKb(en, 'How long do refunds take?');
    expect(english.body.notice).toBeUndefined();
    expect(english.body.hits[0].knn).toBeGreaterThan(0.5);
  });

  it('the knowledge base says its embedder does not cover Chinese and what to use instead', async () => {
    const a = await call(getKb, 'GET', `/api/knowledge-bases/${zh}`, { params: { id: zh } });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ id: zh, documentCount: 2, chunkCount: 2 });
    expect(a.body.embedder).toMatchObject({ model: 'use-lite', uncoveredChunks: 2 });
    expect(a.body.embedder.notice).toMatch(/does not cover Chinese.*bge-m3.*text-embedding-v4/);
    // Which store and fusion its searches take, as /api/health names it.
    expect(a.body.search).toBe('embedded hybrid index (BM25 + cosine kNN, weighted fusion)');
    const b = await call(getKb, 'GET', `/api/knowledge-bases/${en}`, { params: { id: en } });
    expect(b.body.embedder).toMatchObject({ model: 'use-lite', uncoveredChunks: 0, notice: null });
    expectNoServerErrorsOrStacks();
  });
});
