/**
 * Guarantee, through the HTTP API on a fresh embedded database: a real .docx (a zip of WordprocessingML written
 * here) uploaded to a knowledge base is indexed, with headings and paragraphs as their own paragraphs and table rows
 * as lines, and search finds its English and its Chinese text. A file that is not a zip, a cut-off .docx, a zip
 * without a Word document, a zip bomb and a zip bomb whose headers lie about its size each fail only that document,
 * with DOCUMENT_PARSE_FAILED or DOCUMENT_INFLATED_TOO_LARGE; the documents before and after them are indexed and
 * found. Never a 5xx or a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { DOCUMENT_MIME } from '@/engine/knowledge/parsers';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { makeDocx, makeDocxBomb, makeZip } from './support/make-docx';
import { createKnowledgeBase, searchKb, uploadFile, waitSettled } from './support/upload-helpers';

useFreshDataDir('paiflow-docx-');
process.env.SEED_EXAMPLE = '0';
// The inflation limit the bombs meet, set low (read per document) so that a bomb of 16 MiB, not 200, passes it.
process.env.DOCUMENT_MAX_INFLATED_BYTES = String(8 << 20);

const DOCX = DOCUMENT_MIME.docx;
let kbId = '';
/** The first upload loads the offline embedding model, which on a busy machine takes longer than the default. */
const SLOW = 180_000;

const HANDBOOK = makeDocx([
  { text: 'Warranty handbook', heading: 1 },
  { text: 'The warranty covers manufacturing defects of the thermostat for two years from purchase.' },
  { text: 'Returns', heading: 2 },
  { text: 'Unused items may be returned within thirty days.' },
  { text: '保修政策', heading: 1 },
  { text: '本产品自购买之日起保修两年，不包括意外损坏。' },
  {
    table: [
      ['型号', '价格'],
      ['TX-9000', '999元'],
    ],
  },
]);

beforeAll(async () => {
  await getApp();
  kbId = await createKnowledgeBase('Word documents');
});

afterAll(async () => {
  await (await getApp()).close();
});

describe('.docx uploads', () => {
  it(
    'are indexed and searchable in English and Chinese, headings and table rows kept apart',
    async () => {
      const up = await uploadFile(kbId, 'handbook.docx', DOCX, HANDBOOK);
      expect(up.status, up.text).toBe(202);
      expect(up.body).toMatchObject({ title: 'handbook', mime: DOCX });
      // Detected by the declared type when the name has no extension.
      const noExt = await uploadFile(kbId, 'memo', DOCX, makeDocx([{ text: 'The cafeteria opens at eleven.' }]));
      expect(noExt.status, noExt.text).toBe(202);
      const docs = await waitSettled(kbId);
      for (const d of docs) expect(d, d.title).toMatchObject({ status: 'indexed', error: null });
      const handbook = docs.find((d) => d.title === 'handbook');

      const en = await searchKb(kbId, 'thermostat manufacturing defects');
      expect(en.status).toBe(200);
      expect(en.body.hits[0]).toMatchObject({ documentId: handbook.id, title: 'handbook' });
      expect(en.body.hits[0].text).toContain('Warranty handbook\n\nThe warranty covers manufacturing defects');

      const zh = await searchKb(kbId, '保修两年');
      expect(zh.body.hits[0].documentId).toBe(handbook.id);
      expect(zh.body.hits[0].text).toContain('本产品自购买之日起保修两年，不包括意外损坏。');
      const row = await searchKb(kbId, 'TX-9000', { mode: 'bm25' });
      expect(row.body.hits[0].text).toContain('型号 价格\nTX-9000 999元');
      expect((await searchKb(kbId, 'cafeteria')).body.hits[0].title).toBe('memo');
    },
    SLOW,
  );

  it(
    'a corrupt file, a zip without a document and zip bombs fail alone, each with its code',
    async () => {
      const bad: Array<[string, Uint8Array, string]> = [
        ['not-a-zip.docx', new TextEncoder().encode('PK this is not really a zip archive'), 'DOCUMENT_PARSE_FAILED'],
        ['cut-off.docx', HANDBOOK.slice(0, Math.floor(HANDBOOK.length / 2)), 'DOCUMENT_PARSE_FAILED'],
        ['no-document.docx', makeZip([{ name: 'notes.txt', data: 'hello' }]), 'DOCUMENT_PARSE_FAILED'],
        // 16 MiB of zeros in ~16 KB: over DOCUMENT_MAX_INFLATED_BYTES (8 MiB here) by its declared size …
        ['bomb.docx', await makeDocxBomb(16), 'DOCUMENT_INFLATED_TOO_LARGE'],
        // … and by what it really inflates to, when the headers say 1,000 bytes.
        ['lying-bomb.docx', await makeDocxBomb(16, true), 'DOCUMENT_INFLATED_TOO_LARGE'],
      ];
      for (const [name, bytes] of bad) expect((await uploadFile(kbId, name, DOCX, bytes)).status, name).toBe(202);
      const after = await uploadFile(
        kbId,
        'after.docx',
        DOCX,
        makeDocx([{ text: 'Parking permits are renewed every March.' }]),
      );
      expect(after.status).toBe(202);

      const docs = await waitSettled(kbId);
      for (const [name, bytes, code] of bad) {
        const d = docs.find((x) => x.title === name.replace(/\.docx$/, ''));
        expect({ status: d.status, code: d.error?.code }, name).toEqual({ status: 'failed', code });
        expect(d.error.message.length).toBeGreaterThan(10);
        expect(d.byteSize).toBe(bytes.length);
        expect(d.chunkCount).toBe(0);
      }
      expect(docs.find((d) => d.title === 'after')).toMatchObject({ status: 'indexed', error: null });
      expect((await searchKb(kbId, 'parking permits renewed')).body.hits[0].title).toBe('after');
      expect((await searchKb(kbId, '保修两年')).body.hits[0].title).toBe('handbook');
      const h = await call(health, 'GET', '/api/health');
      expect(h.status).toBe(200);
    },
    SLOW,
  );

  it('other Office files are still refused at upload with 415', async () => {
    const pptx = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    expectError(await uploadFile(kbId, 'slides.pptx', pptx, makeZip([])), 415, 'UNSUPPORTED_DOCUMENT_TYPE', 'file');
    expectNoServerErrorsOrStacks();
  });
});
