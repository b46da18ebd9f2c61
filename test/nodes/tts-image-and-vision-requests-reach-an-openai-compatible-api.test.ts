// Guarantees: with a provider configured, the TTS node calls POST /audio/speech (model, voice, input,
// response_format, speed) once per sentence-bounded piece and stores the joined audio as one artifact whose WAV data
// is the sum of the pieces; `speakers` lines are spoken in their voices; the image node calls POST
// /images/generations (model, prompt, n, size) and stores each image (base64, or a URL downloaded through the SSRF
// guard — refused without an allowlist entry); the LLM and Agent nodes send image inputs (an image node's artifact,
// a data: URL, an http URL fetched through the guard) as image_url parts of the user message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { parseWav } from '@/engine/media/wav';
import { createGuardedFetch } from '@/engine/net/ssrf-guard';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { lineGraph, mediaHarness, type MediaHarness } from './media-support';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

let fake: FakeOpenAi;
let h: MediaHarness;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  const port = new URL(fake.baseURL).port;
  h = await mediaHarness({
    llm: createLlmResolver({ OPENAI_API_KEY: 'sk-test-media', OPENAI_BASE_URL: fake.baseURL }),
    // The fake's /files/ answer image URLs; the guard lets only this one local service through.
    fetch: createGuardedFetch({ allowlist: [`127.0.0.1:${port}`] }),
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.paths.length = 0;
});

const bodiesTo = (path: string) => fake.requests.filter((_, i) => fake.paths[i] === path);

async function run(graph: Parameters<MediaHarness['createWorkflow']>[0], inputs: Record<string, unknown> = {}) {
  const run = await h.runToEnd(await h.createWorkflow(graph), inputs);
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  return run;
}

describe('tts', () => {
  it('sends one /audio/speech request per sentence-bounded piece and joins the WAV', async () => {
    const text =
      'The first sentence is here. The second one follows it! Is this the third? ' +
      '第四句是中文。第五句也是！最后一句呢？';
    const r = await run(
      lineGraph(
        [
          {
            id: 'speech',
            type: 'tts',
            config: {
              text: '{{inputs.text}}',
              model: 'tts-1',
              voice: 'nova',
              format: 'wav',
              speed: 1.25,
              maxCharsPerRequest: 60,
            },
          },
        ],
        { audio: '{{speech.output}}' },
        ['text'],
      ),
      { text },
    );
    const calls = bodiesTo('/v1/audio/speech');
    expect(calls.length).toBeGreaterThan(1);
    for (const b of calls) {
      expect(b).toMatchObject({ model: 'tts-1', voice: 'nova', response_format: 'wav', speed: 1.25 });
      expect(b.input.length).toBeLessThanOrEqual(60);
      expect(b.input).toMatch(/[.!?。！？]$/);
    }
    expect(
      calls
        .map((b) => b.input)
        .join('')
        .replace(/\s/g, ''),
    ).toBe(text.replace(/\s/g, ''));

    const audio = (r.outputs as { audio: Record<string, unknown> }).audio;
    expect(audio).toMatchObject({ contentType: 'audio/wav', format: 'wav', pieces: calls.length });
    expect(audio.url).toBe(`/api/artifacts/${audio.artifactId}`);
    const stored = await h.artifacts.read(r.id, audio.artifactId as string);
    const wav = parseWav(stored.bytes);
    // The fake answers 100 bytes of samples per character: the joined data is the sum of the pieces.
    expect(wav.dataBytes).toBe(calls.reduce((n, b) => n + b.input.length * 100, 0));
    expect(stored.bytes.byteLength).toBe(44 + wav.dataBytes);
    expect(audio.bytes).toBe(stored.bytes.byteLength);
    expect(audio.durationMs).toBe(wav.durationMs);
  });

  it('speaks each speaker line in its voice, without the name', async () => {
    await run(
      lineGraph(
        [
          {
            id: 'speech',
            type: 'tts',
            config: {
              text: 'Host: Welcome to the show.\nGuest: Thanks for having me.\nHost: Let us begin.',
              format: 'mp3',
              speakers: [
                { name: 'Host', voice: 'nova' },
                { name: 'Guest', voice: 'onyx' },
              ],
            },
          },
        ],
        { audio: '{{speech.output}}' },
      ),
    );
    expect(bodiesTo('/v1/audio/speech').map((b) => [b.voice, b.input, b.response_format])).toEqual([
      ['nova', 'Welcome to the show.', 'mp3'],
      ['onyx', 'Thanks for having me.', 'mp3'],
      ['nova', 'Let us begin.', 'mp3'],
    ]);
  });
});

describe('image', () => {
  it('sends /images/generations and stores each base64 image as an artifact', async () => {
    const r = await run(
      lineGraph(
        [{ id: 'img', type: 'image', config: { prompt: 'a red dot', model: 'gpt-image-1', n: 2, size: '256x256' } }],
        { picture: '{{img.output}}' },
      ),
    );
    expect(bodiesTo('/v1/images/generations')).toEqual([
      { model: 'gpt-image-1', prompt: 'a red dot', n: 2, size: '256x256' },
    ]);
    const out = (r.outputs as { picture: { images: Array<{ artifactId: string; contentType: string }> } }).picture;
    expect(out).toMatchObject({ count: 2, revisedPrompts: ['revised: a red dot', 'revised: a red dot'] });
    expect(out.images).toHaveLength(2);
    for (const ref of out.images) {
      expect(ref.contentType).toBe('image/png');
      const { bytes } = await h.artifacts.read(r.id, ref.artifactId);
      expect(Buffer.from(bytes).toString('base64')).toBe(PNG_1X1);
    }
  });

  it('downloads URL answers through the SSRF guard', async () => {
    const r = await run(
      lineGraph([{ id: 'img', type: 'image', config: { prompt: 'p', model: 'dall-e-3', responseFormat: 'url' } }], {
        picture: '{{img.output}}',
      }),
    );
    expect(bodiesTo('/v1/images/generations')[0]).toMatchObject({ model: 'dall-e-3', response_format: 'url', n: 1 });
    const ref = (r.outputs as { picture: { artifactId: string } }).picture;
    expect(Buffer.from((await h.artifacts.read(r.id, ref.artifactId)).bytes).toString('base64')).toBe(PNG_1X1);

    // Without the allowlist entry the same answer's URL (a local address) is refused.
    const strict = await mediaHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'sk-test-media', OPENAI_BASE_URL: fake.baseURL }),
    });
    try {
      const failed = await strict.runToEnd(
        await strict.createWorkflow(
          lineGraph([{ id: 'img', type: 'image', config: { prompt: 'p', responseFormat: 'url' } }], {
            p: '{{img.output}}',
          }),
        ),
      );
      expect(failed.status).toBe('failed');
      const snap = (await strict.store.getNodeRuns(failed.id)).find((n) => n.nodeId === 'img');
      expect(snap?.error?.code).toBe('SSRF_BLOCKED');
    } finally {
      await strict.close();
    }
  });
});

describe('vision', () => {
  it('sends an artifact, a data: URL and a fetched URL as image_url parts of the LLM node’s user message', async () => {
    const port = new URL(fake.baseURL).port;
    await run(
      lineGraph(
        [
          { id: 'img', type: 'image', config: { prompt: 'a red dot' } },
          {
            id: 'look',
            type: 'llm',
            config: {
              userPrompt: 'What is in these pictures?',
              stream: false,
              images: ['{{img.output}}', `data:image/png;base64,${PNG_1X1}`, `http://127.0.0.1:${port}/files/dot.png`],
            },
          },
        ],
        { text: '{{look.output.text}}' },
      ),
    );
    const chat = bodiesTo('/v1/chat/completions');
    expect(chat).toHaveLength(1);
    const user = chat[0].messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'What is in these pictures?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
    ]);
  });

  it('sends the Agent node’s images with its task', async () => {
    await run(
      lineGraph(
        [
          {
            id: 'agent',
            type: 'agent',
            config: {
              task: 'Describe the image.',
              stream: false,
              memory: { enabled: false },
              images: [`data:image/png;base64,${PNG_1X1}`],
            },
          },
        ],
        { text: '{{agent.output.text}}' },
      ),
    );
    const user = bodiesTo('/v1/chat/completions')[0].messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'Describe the image.' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
    ]);
  });

  it('refuses an image input that is none of the accepted kinds, with its path', async () => {
    const failed = await h.runToEnd(
      await h.createWorkflow(
        lineGraph([{ id: 'look', type: 'llm', config: { userPrompt: 'x', images: ['not an image'] } }], {
          t: '{{look.output.text}}',
        }),
      ),
    );
    expect(failed.status).toBe('failed');
    const snap = (await h.store.getNodeRuns(failed.id)).find((n) => n.nodeId === 'look');
    expect(snap?.error).toMatchObject({ code: 'INVALID_IMAGE_INPUT', path: 'config.images[0]' });
    expect(bodiesTo('/v1/chat/completions')).toHaveLength(0);
  });
});
