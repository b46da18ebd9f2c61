/**
 * Guarantee: offline (the demo provider), the `tts` node speaks a real WAV and the `image` node draws a real PNG, each
 * stored as an artifact that GET /api/artifacts/:id serves with its content type, `nosniff`, the sandboxing CSP and
 * byte ranges; a published run's outputs point at /api/v1/runs/:runId/artifacts/:id, which serves the same bytes to
 * the holder of the workflow's API key and nobody else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { createWorkflow, node, nodeOf, runToEnd } from './support/runs';

const { api, baseURL } = acceptance();

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function graph() {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'line', type: 'string', required: true }] }),
      node('say', 'tts', { text: '{{inputs.line}}', format: 'wav', fileName: 'greeting' }, 200),
      node('draw', 'image', { prompt: 'A lighthouse at dusk: {{inputs.line}}', fileName: 'lighthouse' }, 200),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'speech', value: '{{say.output}}' },
            { name: 'picture', value: '{{draw.output}}' },
          ],
        },
        400,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'say' },
      { id: 'e2', source: 'start', target: 'draw' },
      { id: 'e3', source: 'say', target: 'end' },
      { id: 'e4', source: 'draw', target: 'end' },
    ],
  };
}

async function download(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(baseURL + path, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function expectSafeHeaders(h: Headers) {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(h.get('content-disposition')).toMatch(/^inline; filename="/);
  expect(h.get('accept-ranges')).toBe('bytes');
}

const ascii = (b: Uint8Array, from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');

describe('speech and image artifacts', () => {
  const auth = { authorization: api.headers.authorization };
  let wf: string;
  let run: any;

  beforeAll(async () => {
    wf = await createWorkflow(api, `Artifacts ${Date.now()}`, graph());
    run = await runToEnd(api, wf, { line: 'Hello from the acceptance suite.' });
  });

  it('stores the speech as a playable WAV, served with its type, safe headers and byte ranges', async () => {
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const speech = nodeOf(run, 'say').output;
    expect(speech).toMatchObject({ contentType: 'audio/wav', format: 'wav', name: 'greeting.wav' });
    expect(speech.url).toBe(`/api/artifacts/${speech.artifactId}`);
    expect(speech.durationMs).toBeGreaterThan(0);
    expect(run.outputs.speech.artifactId).toBe(speech.artifactId);

    const { res, bytes } = await download(speech.url, auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expectSafeHeaders(res.headers);
    expect(bytes.byteLength).toBe(speech.bytes);
    expect(ascii(bytes, 0, 4)).toBe('RIFF');
    expect(ascii(bytes, 8, 12)).toBe('WAVE');
    // The RIFF size field agrees with the file: a player can read all of it.
    expect(Buffer.from(bytes).readUInt32LE(4)).toBe(bytes.byteLength - 8);
    // Samples, not a header alone.
    expect(bytes.byteLength).toBeGreaterThan(1000);

    const head = await download(speech.url, { ...auth, range: 'bytes=0-3' });
    expect(head.res.status).toBe(206);
    expect(head.res.headers.get('content-range')).toBe(`bytes 0-3/${bytes.byteLength}`);
    expect(ascii(head.bytes, 0, 4)).toBe('RIFF');
    const tail = await download(speech.url, { ...auth, range: 'bytes=-10' });
    expect(tail.res.status).toBe(206);
    expect(Buffer.from(tail.bytes).equals(Buffer.from(bytes.subarray(-10)))).toBe(true);
    const beyond = await download(speech.url, { ...auth, range: `bytes=${bytes.byteLength}-` });
    expect(beyond.res.status).toBe(416);
  });

  it('states each answer’s length (Content-Length), whole file and byte range', async () => {
    const speech = nodeOf(run, 'say').output;
    // lib/server/runs/artifact-response.ts sets it; a player shows the length and a download its progress from it.
    const whole = await download(speech.url, auth);
    expect
      .soft(whole.res.headers.get('content-length'), JSON.stringify(Object.fromEntries(whole.res.headers)))
      .toBe(String(speech.bytes));
    const part = await download(speech.url, { ...auth, range: 'bytes=0-3' });
    expect.soft(part.res.headers.get('content-length'), 'a byte range').toBe('4');
  });

  it('stores the image as a real PNG (marked as a demo), served with its type and safe headers', async () => {
    const picture = nodeOf(run, 'draw').output;
    expect(picture).toMatchObject({ contentType: 'image/png', count: 1, demo: true });
    expect(picture.images).toHaveLength(1);
    const { res, bytes } = await download(picture.url, auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expectSafeHeaders(res.headers);
    expect(bytes.byteLength).toBe(picture.bytes);
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(ascii(bytes, 12, 16)).toBe('IHDR');
    // The ETag lets a browser keep it.
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await download(picture.url, { ...auth, 'if-none-match': etag });
    expect(again.res.status).toBe(304);
  });

  it('refuses an artifact to a caller without a session or token, and answers 404 for an unknown id', async () => {
    const speech = nodeOf(run, 'say').output;
    const anon = await download(speech.url);
    expect(anon.res.status).toBe(401);
    const unknown = await api.get('/api/artifacts/art_does_not_exist');
    expect(unknown.status).toBe(404);
  });

  it('serves a published run’s files at its v1 URLs to the workflow’s API key only', async () => {
    const published = await api.expectStatus(api.post(`/api/workflows/${wf}/publish`), 201);
    const { key } = await api.expectStatus(api.post(`/api/workflows/${wf}/api-keys`, { name: 'artifacts' }), 201);
    const res = await fetch(`${baseURL}/api/v1/workflows/${published.slug}/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: { line: 'Published speech.' }, mode: 'sync' }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.status).toBe('succeeded');
    const { speech, picture } = body.outputs;
    expect(speech.url).toBe(`/api/v1/runs/${body.runId}/artifacts/${speech.artifactId}`);
    expect(picture.url).toBe(`/api/v1/runs/${body.runId}/artifacts/${picture.artifactId}`);

    const keyAuth = { authorization: `Bearer ${key}` };
    const wav = await download(speech.url, keyAuth);
    expect(wav.res.status).toBe(200);
    expect(wav.res.headers.get('content-type')).toBe('audio/wav');
    expectSafeHeaders(wav.res.headers);
    expect(ascii(wav.bytes, 0, 4)).toBe('RIFF');
    const png = await download(picture.url, { ...keyAuth, range: 'bytes=0-7' });
    expect(png.res.status).toBe(206);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect([...png.bytes]).toEqual(PNG_SIGNATURE);

    // The same file as the workspace sees it.
    const direct = await download(`/api/artifacts/${speech.artifactId}`, auth);
    expect(Buffer.from(direct.bytes).equals(Buffer.from(wav.bytes))).toBe(true);

    // Without the key, or for another run's file (the editor run's), nothing.
    expect((await download(speech.url)).res.status).toBe(401);
    const editorFile = nodeOf(run, 'say').output.artifactId;
    expect((await download(`/api/v1/runs/${body.runId}/artifacts/${editorFile}`, keyAuth)).res.status).toBe(404);
    expect((await download(`/api/v1/runs/${run.id}/artifacts/${editorFile}`, keyAuth)).res.status).toBe(404);

    // The published twin states the file's length too.
    expect(wav.res.headers.get('content-length')).toBe(String(speech.bytes));
  });
});
