// Guarantee: dataset uploads, YAML imports and multipart forms are read in the CPU pools' `uploads` worker thread: the
// main thread gets the answer (fields, files, rows) or the refusal with its code, path and line intact; a document that
// takes longer than UPLOAD_PARSE_TIMEOUT_MS ends its thread with UPLOAD_PARSE_TIMEOUT (naming the setting), and the
// next upload is read by a fresh thread. The worker gets a copy: the caller's bytes, and whatever shares their memory
// (Node's shared Buffer pool holds every small Buffer), stay intact.
import { describe, expect, it } from 'vitest';
import { cpuLimits, type CpuLimits } from '@/engine/cpu/limits';
import { datasetForm, difyWithSmallMaps, jsonlNested } from '@/test/support/hostile-documents';
import { readDatasetUploadInWorker, readMultipartFormInWorker, readYamlInWorker } from './parse-in-worker';

async function multipart(form: FormData) {
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

const limits = (over: Partial<CpuLimits>): CpuLimits => ({ ...cpuLimits(), ...over });

describe('read in the worker', () => {
  it('a dataset upload: its fields, file name and rows', async () => {
    const form = datasetForm('support.csv', 'question,expected\n发票怎么开？,在订单页申请\n');
    form.append('description', '客服');
    const { body, type } = await multipart(form);
    const upload = await readDatasetUploadInWorker(body, type, 10_000);
    expect(upload.fields).toEqual({ name: 'support.csv', description: '客服' });
    expect(upload.filename).toBe('support.csv');
    expect(JSON.parse(upload.rows.rowsJson)).toEqual([
      { inputs: { question: '发票怎么开？' }, expected: '在订单页申请' },
    ]);
  });

  it("moves a copy: the caller's Buffer and the memory it shares stay intact", async () => {
    const { body, type } = await multipart(datasetForm('small.csv', 'question,expected\nq1,a1\n'));
    // A Buffer on a larger ArrayBuffer that other data shares, as every small Buffer on Node's shared pool is.
    const memory = Buffer.alloc(body.byteLength + 'neighbour'.length);
    memory.set(body);
    memory.write('neighbour', body.byteLength);
    const view = memory.subarray(0, body.byteLength);
    const upload = await readDatasetUploadInWorker(view, type, 10_000);
    expect(JSON.parse(upload.rows.rowsJson)).toEqual([{ inputs: { question: 'q1' }, expected: 'a1' }]);
    expect(view.byteLength).toBe(body.byteLength);
    expect(memory.subarray(body.byteLength).toString()).toBe('neighbour');
  });

  it('a refusal keeps its code, path and line; a form field the upload does not know is named', async () => {
    const deep = await multipart(datasetForm('deep.jsonl', `{"inputs":{}}\n${jsonlNested(2_000_000)}`));
    await expect(readDatasetUploadInWorker(deep.body, deep.type, 10_000)).rejects.toMatchObject({
      code: 'JSON_TOO_DEEP',
      path: 'file',
      details: { line: 2 },
    });
    const form = datasetForm('a.csv', 'q\n1\n');
    form.append('owner', 'me');
    const unknown = await multipart(form);
    await expect(readDatasetUploadInWorker(unknown.body, unknown.type, 10_000)).rejects.toMatchObject({
      code: 'UNKNOWN_KEY',
      path: 'owner',
    });
  });

  it('a multipart form: text fields and files as bytes', async () => {
    const form = new FormData();
    form.append('title', '手册');
    form.append('file', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    const { body, type } = await multipart(form);
    const parsed = await readMultipartFormInWorker(body, type, { maxParts: 2 });
    expect(parsed.fields).toEqual([['title', '手册']]);
    expect(parsed.files).toMatchObject([{ field: 'file', name: 'a.txt', type: 'text/plain' }]);
    expect(new TextDecoder().decode(parsed.files[0].bytes)).toBe('hello');
    await expect(readMultipartFormInWorker(body, type, { maxParts: 1 })).rejects.toMatchObject({
      code: 'TOO_MANY_FORM_PARTS',
    });
  });
});

describe('the time budget', () => {
  it('a YAML read for longer than the budget is UPLOAD_PARSE_TIMEOUT; the next one is read', async () => {
    const slow = limits({ uploadParseTimeoutMs: 50, importMaxYamlNodes: 10_000_000 });
    await expect(readYamlInWorker(difyWithSmallMaps(20_000), { limits: slow })).rejects.toMatchObject({
      code: 'UPLOAD_PARSE_TIMEOUT',
      message: expect.stringContaining('UPLOAD_PARSE_TIMEOUT_MS'),
    });
    await expect(readYamlInWorker('app:\n  mode: workflow\n')).resolves.toEqual({ app: { mode: 'workflow' } });
  });
});
