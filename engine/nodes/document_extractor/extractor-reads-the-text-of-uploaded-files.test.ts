// Guarantees: the document extractor gives the text of a PDF and of a .docx given as a Start input (a file object
// with base64 data, as the API takes it), `{ text }` for one file and `{ text: [...] }` for a list in its order, also
// from an artifact or a data: URL; a type the parsers cannot read fails with UNSUPPORTED_DOCUMENT_TYPE, a file over
// its size limit with FILE_TOO_LARGE, and a value that is no file with FILE_INPUT_INVALID, each with the path of the
// file. The parsing is the knowledge base's, on the CPU pool's documents thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeArtifacts } from '@/engine/artifacts/types';
import { closeCpuPools } from '@/engine/cpu/pool';
import type { Graph } from '@/engine/graph/schema';
import type { NodeContext } from '@/engine/node-kit/define';
import { createHarness, type Harness } from '@/test/support/harness';
import { makeDocx } from '@/test/knowledge/support/make-docx';
import { makePdf } from '@/test/knowledge/support/make-pdf';
import { documentExtractorConfigSchema, documentExtractorNode, type DocumentExtractorConfig } from './index';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const PDF = makePdf([['Invoice 42 is due in March.'], ['Page two: thank you.']]);
const DOCX = makeDocx([{ text: 'Warranty handbook', heading: 1 }, { text: '本产品自购买之日起保修两年。' }]);
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const artifacts: NodeArtifacts = {
  save: () => Promise.reject(new Error('not used')),
  read: async (runId, id) => ({
    record: {
      id,
      runId,
      nodeId: 'n',
      name: 'notes.md',
      contentType: 'text/markdown',
      bytes: 12,
      sha256: '',
      storageKey: '',
      createdAt: new Date(),
    },
    bytes: new TextEncoder().encode('# Notes\n\nHello'),
  }),
};

function extract(files: unknown, config: Partial<DocumentExtractorConfig> = {}) {
  const parsed = documentExtractorConfigSchema.parse({ files: '{{inputs.f}}', ...config });
  const ctx = {
    config: { ...parsed, files },
    runId: 'run1',
    artifacts,
    signal: new AbortController().signal,
    fetch: () => Promise.reject(new Error('no network in this test')),
  } as unknown as NodeContext<DocumentExtractorConfig>;
  return documentExtractorNode.execute(ctx).then((r) => r.output as { text: unknown });
}

describe('document extractor', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await closeCpuPools();
  });

  it('reads a PDF and a .docx given as Start inputs, one file and a list of files', async () => {
    const graph: Graph = {
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 0, y: 0 },
          data: {
            config: {
              inputs: [
                { name: 'report', type: 'object' },
                { name: 'attachments', type: 'array' },
              ],
            },
          },
        },
        {
          id: 'one',
          type: 'document_extractor',
          position: { x: 0, y: 0 },
          data: { config: { files: '{{inputs.report}}' } },
        },
        {
          id: 'many',
          type: 'document_extractor',
          position: { x: 0, y: 0 },
          data: { config: { files: '{{inputs.attachments}}' } },
        },
        {
          id: 'end',
          type: 'end',
          position: { x: 0, y: 0 },
          data: {
            config: {
              outputs: [
                { name: 'one', value: '{{one.output.text}}' },
                { name: 'many', value: '{{many.output.text}}' },
              ],
            },
          },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'one' },
        { id: 'e2', source: 'one', target: 'many' },
        { id: 'e3', source: 'many', target: 'end' },
      ],
    };
    const wf = await h.createWorkflow(graph);
    const run = await h.runToEnd(wf, {
      report: { name: 'invoice.pdf', contentType: 'application/pdf', data: b64(PDF) },
      attachments: [
        { filename: 'handbook', mime_type: DOCX_TYPE, data: b64(DOCX) },
        { name: 'readme.txt', data: `data:text/plain;base64,${b64(new TextEncoder().encode('plain words'))}` },
      ],
    });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const out = run.outputs as { one: string; many: string[] };
    expect(out.one).toContain('Invoice 42 is due in March.');
    expect(out.one).toContain('Page two: thank you.');
    expect(out.many).toHaveLength(2);
    expect(out.many[0]).toContain('Warranty handbook');
    expect(out.many[0]).toContain('本产品自购买之日起保修两年。');
    expect(out.many[1]).toBe('plain words');
  }, 60_000);

  it('reads an artifact and a data: URL string', async () => {
    expect(await extract({ artifactId: 'art_0123456789abcdef01234567' })).toEqual({ text: '# Notes\n\nHello' });
    const html = `data:text/html;base64,${b64(new TextEncoder().encode('<p>Hi <b>there</b></p>'))}`;
    expect((await extract([html])).text).toEqual(['Hi there']);
  });

  it('explains an unsupported type, a file over its limit and a value that is no file, with its path', async () => {
    const zip = { name: 'photos.zip', data: b64(new Uint8Array([80, 75, 3, 4])) };
    await expect(extract([{ name: 'a.txt', data: b64(new Uint8Array([65])) }, zip])).rejects.toMatchObject({
      code: 'UNSUPPORTED_DOCUMENT_TYPE',
      path: 'config.files[1]',
    });
    await expect(extract({ name: 'big.pdf', data: b64(PDF) }, { maxFileBytes: 100 })).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      path: 'config.files',
    });
    await expect(extract('just some text')).rejects.toMatchObject({ code: 'FILE_INPUT_INVALID' });
    await expect(extract({ name: 'x.pdf' })).rejects.toMatchObject({ code: 'FILE_INPUT_INVALID' });
    await expect(extract(undefined)).rejects.toMatchObject({ code: 'FILE_INPUT_INVALID', path: 'config.files' });
  });
});
