/**
 * Guarantee: documents become clean text (HTML tags and scripts stripped, entities decoded; PDF text per page) and
 * are cut into chunks of at most chunkSize characters with the configured overlap, preferring paragraph then sentence
 * boundaries, with exact offsets (chunk.text === text.slice(start, end)) and the page of each PDF chunk.
 */
import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithCjkBigrams } from '@/engine/knowledge/analyzer';
import { chunkText } from '@/engine/knowledge/chunker';
import { htmlToText } from '@/engine/knowledge/html-to-text';
import { detectMime, parseDocument } from '@/engine/knowledge/parsers';
import { porterStem } from '@/engine/knowledge/porter-stemmer';
import { makePdf } from './support/make-pdf';

const sentence = (i: number) => `Sentence number ${i} talks about topic ${i % 5} in a few plain words.`;

describe('chunker', () => {
  it('keeps offsets exact, respects size and overlaps by about the configured amount', () => {
    const text = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkText(text, { size: 512, overlap: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.text.length).toBeLessThanOrEqual(512);
      expect(c.text).toMatch(/^Sentence number/); // starts at a sentence start
      expect(c.text).toMatch(/words\.$/); // ends at a sentence end
    }
    for (let i = 1; i < chunks.length; i++) {
      const overlap = chunks[i - 1].end - chunks[i].start;
      expect(overlap).toBeGreaterThan(0);
      expect(overlap).toBeLessThanOrEqual(100);
    }
    expect(chunks[0].start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(text.length);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('prefers a paragraph break over a later sentence end', () => {
    const p1 = Array.from({ length: 5 }, (_, i) => sentence(i)).join(' ');
    const p2 = Array.from({ length: 8 }, (_, i) => sentence(i + 10)).join(' ');
    const text = `${p1}\n\n${p2}`;
    const [first] = chunkText(text, { size: 512, overlap: 50 });
    expect(first.text).toBe(p1);
  });

  it('cuts at a word boundary when there is no sentence, and hard-cuts an unbroken string', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    for (const c of chunkText(words, { size: 100, overlap: 20 })) {
      expect(c.text).toMatch(/^word\d+( word\d+)*$/);
      expect(c.text.length).toBeLessThanOrEqual(100);
    }
    const blob = 'x'.repeat(1000);
    const parts = chunkText(blob, { size: 300, overlap: 50 });
    expect(parts.every((c) => c.text.length <= 300)).toBe(true);
    expect(parts.at(-1)!.end).toBe(1000);
  });

  it('chunks per page when given page segments', () => {
    const p1 = 'Page one text. '.repeat(5).trim();
    const p2 = 'Page two text. '.repeat(5).trim();
    const text = `${p1}\n\n${p2}`;
    const chunks = chunkText(text, { size: 512, overlap: 100 }, [
      { start: 0, end: p1.length, page: 1 },
      { start: p1.length + 2, end: text.length, page: 2 },
    ]);
    expect(chunks.map((c) => [c.page, c.text])).toEqual([
      [1, p1],
      [2, p2],
    ]);
  });

  it('returns nothing for blank text', () => {
    expect(chunkText('   \n\n  ', { size: 512, overlap: 100 })).toEqual([]);
  });
});

describe('HTML', () => {
  it('strips tags, scripts, styles and comments, keeps block structure and decodes entities', () => {
    const html =
      `<!doctype html><html><head><title>Refunds &amp; Returns</title><style>p{color:red}</style>
      <script>var s = "<p>not text</p>"; if (a > b) alert(1)</script></head>
      <body><h1>Refund policy</h1><!-- hidden <b>comment</b> --><p class="x" data-x="a > b">` +
      `Items can be returned within <b>30&nbsp;days</b> &mdash; see &#x201C;terms&#8221;.</p>
      <ul><li>Receipts needed</li><li>Unused items</li></ul><img src="x.png" alt="chart of refunds">` +
      `<noscript>enable js</noscript></body></html>`;
    const { text, title } = htmlToText(html);
    expect(title).toBe('Refunds & Returns');
    expect(text).toBe(
      (
        'Refund policy\n\nItems can be returned within 30 days — ' +
        'see “terms”.\n\nReceipts needed\nUnused items\n\n chart of refunds'
      ).replace('\n\n chart', '\n\nchart'),
    );
    expect(text).not.toMatch(/not text|alert|color|comment|enable js|</);
  });

  it('decodes every HTML5 character reference as a browser does, and drops soft hyphens', () => {
    const { text } = htmlToText(
      '<p>&Omega;&hearts; &notin; &#150;&#0; &copy 2026 &amp;c &unknown; hy&shy;phen&nbsp;end &lt;b&gt;</p>',
    );
    expect(text).toBe('Ω♥ ∉ –\ufffd © 2026 &c &unknown; hyphen end <b>');
  });
});

describe('PDF', () => {
  it('extracts text page by page (unpdf / pdf.js, offline)', async () => {
    const pdf = makePdf([['Hello from page one.', 'It has two lines (and parens).'], ['Page two is about invoices.']]);
    const parsed = await parseDocument(pdf, 'application/pdf');
    expect(parsed.pages).toBe(2);
    expect(parsed.segments!.map((s) => parsed.text.slice(s.start, s.end))).toEqual([
      'Hello from page one.\nIt has two lines (and parens).',
      'Page two is about invoices.',
    ]);
    expect(parsed.segments!.map((s) => s.page)).toEqual([1, 2]);
  });

  it('refuses a broken PDF with DOCUMENT_PARSE_FAILED', async () => {
    await expect(parseDocument(new TextEncoder().encode('%PDF-1.4 garbage'), 'application/pdf')).rejects.toMatchObject({
      code: 'DOCUMENT_PARSE_FAILED',
    });
  });
});

describe('types and text', () => {
  it('detects types by extension, then declared type, and refuses others', () => {
    expect(detectMime('a.MD', undefined)).toBe('text/markdown');
    expect(detectMime('a.htm', 'application/octet-stream')).toBe('text/html');
    expect(detectMime('blob', 'application/pdf')).toBe('application/pdf');
    expect(() => detectMime('a.pptx', 'application/vnd.openxmlformats')).toThrow(/unsupported document type \.pptx/);
  });

  it('decodes UTF-8 with a BOM and CRLF line ends', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('caf\u00e9\r\nline')]);
    expect((await parseDocument(bytes, 'text/plain')).text).toBe('café\nline');
  });

  it('analyzes like Elasticsearch english: stop words, possessives, Porter stems, codes split, CJK bigrams', () => {
    expect(analyze("The system's connections were FAILING with ERR-4521!")).toEqual([
      'system',
      'connect',
      'fail',
      'err',
      '4521',
    ]);
    expect(analyzeWithCjkBigrams('数据库')).toEqual(['数据', '据库']); // the Elasticsearch `cjk` mapping's analysis
    expect(['generalizations', 'relational', 'hopping', 'ponies'].map(porterStem)).toEqual([
      'gener',
      'relat',
      'hop',
      'poni',
    ]);
  });
});
