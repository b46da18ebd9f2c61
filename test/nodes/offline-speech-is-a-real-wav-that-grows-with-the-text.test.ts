// Guarantees: without any API key the TTS node speaks with the offline synthesizer (espeak-ng in a worker thread) and
// stores a real WAV — its header parsed: PCM, 22 050 Hz, 16-bit mono — whose duration grows with the text, English
// and Chinese; the text-to-podcast template runs to `succeeded` offline and its episode is such a WAV, longer for a
// longer topic; the image node's offline demo is a deterministic PNG marked as a demo; the demo model says how many
// images it was given.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '@/engine/media/wav';
import { localizedGraph } from '@/engine/templates/localize';
import { TEXT_TO_PODCAST_TEMPLATE } from '@/engine/templates/text-to-podcast';
import { lineGraph, mediaHarness, type MediaHarness } from './media-support';

let h: MediaHarness;
beforeAll(async () => {
  h = await mediaHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function speak(text: string, voice = 'alloy') {
  const run = await h.runToEnd(
    await h.createWorkflow(
      lineGraph(
        [{ id: 'speech', type: 'tts', config: { text: '{{inputs.text}}', voice } }],
        { audio: '{{speech.output}}' },
        ['text'],
      ),
    ),
    { text },
  );
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  const audio = (run.outputs as { audio: Record<string, unknown> }).audio;
  const { bytes } = await h.artifacts.read(run.id, audio.artifactId as string);
  return { audio, wav: parseWav(bytes), bytes };
}

describe('offline speech', () => {
  it('is a WAV whose duration grows with the text', async () => {
    const short = await speak('Hello there.');
    const long = await speak(
      'Hello there. This is a much longer text, with several sentences in it. It keeps going for a while, so that ' +
        'the synthesizer has a lot more to say than before.',
    );
    for (const { wav, audio, bytes } of [short, long]) {
      expect(wav).toMatchObject({ audioFormat: 1, channels: 1, sampleRate: 22_050, bitsPerSample: 16 });
      expect(audio).toMatchObject({ contentType: 'audio/wav', format: 'wav', demo: true, provider: 'demo' });
      expect(audio.bytes).toBe(bytes.byteLength);
      expect(audio.durationMs).toBe(wav.durationMs);
      // Real speech, not silence: some samples are far from zero.
      const samples = new Int16Array(
        bytes.buffer.slice(bytes.byteOffset + wav.dataOffset, bytes.byteOffset + wav.dataOffset + wav.dataBytes),
      );
      expect(samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    }
    expect(short.wav.durationMs).toBeGreaterThan(300);
    expect(long.wav.durationMs).toBeGreaterThan(short.wav.durationMs * 3);
  }, 60_000);

  it('speaks Chinese text, longer for more of it', async () => {
    const one = await speak('你好。', 'nova');
    const three = await speak('你好。今天天气很好，我们一起去公园散步吧！你觉得怎么样？', 'nova');
    expect(three.wav.durationMs).toBeGreaterThan(one.wav.durationMs * 2);
  }, 60_000);
});

describe('the text-to-podcast template offline', () => {
  async function episode(topic?: string, lang: 'en' | 'zh' = 'en') {
    const wf = await h.createWorkflow(localizedGraph(TEXT_TO_PODCAST_TEMPLATE, lang), 'podcast');
    const run = await h.runToEnd(wf, topic === undefined ? {} : { topic });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const out = run.outputs as { audio: { artifactId: string; contentType: string }; script: string };
    expect(out.audio.contentType).toBe('audio/wav');
    if (topic) expect(out.script).toContain(topic.slice(0, 20));
    return parseWav((await h.artifacts.read(run.id, out.audio.artifactId)).bytes);
  }

  it('produces a WAV whose duration grows with the topic', async () => {
    const short = await episode('Stars.');
    const long = await episode(
      'Why the night sky is dark even though the universe holds billions upon billions of shining stars.',
    );
    expect(short.sampleRate).toBe(22_050);
    expect(long.durationMs).toBeGreaterThan(short.durationMs);
  }, 90_000);

  it('runs with its default topic in both languages', async () => {
    for (const lang of ['en', 'zh'] as const) expect((await episode(undefined, lang)).durationMs).toBeGreaterThan(1000);
  }, 90_000);
});

describe('offline images and vision', () => {
  it('draws the same PNG for the same prompt, marked as a demo', async () => {
    const graph = lineGraph(
      [{ id: 'img', type: 'image', config: { prompt: '{{inputs.p}}', size: '1024x512' } }],
      { picture: '{{img.output}}' },
      ['p'],
    );
    const wf = await h.createWorkflow(graph);
    const png = async (p: string) => {
      const run = await h.runToEnd(wf, { p });
      expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
      const out = (run.outputs as { picture: { artifactId: string; demo: boolean; contentType: string } }).picture;
      expect(out).toMatchObject({ demo: true, contentType: 'image/png' });
      return Buffer.from((await h.artifacts.read(run.id, out.artifactId)).bytes);
    };
    const [a, b, c] = [await png('a lighthouse'), await png('a lighthouse'), await png('a forest')];
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    // A valid PNG: signature, IHDR of the requested aspect (scaled to 512 px), and pixel rows that inflate.
    expect(a.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([a.readUInt32BE(16), a.readUInt32BE(20)]).toEqual([512, 256]);
    const idat = a.indexOf('IDAT');
    expect(inflateSync(a.subarray(idat + 4, idat + 4 + a.readUInt32BE(idat - 4))).byteLength).toBe(256 * (1 + 512 * 3));
  });

  it('the demo model says how many images it was given', async () => {
    const run = await h.runToEnd(
      await h.createWorkflow(
        lineGraph(
          [
            { id: 'img', type: 'image', config: { prompt: 'x', n: 2, size: '64x64' } },
            { id: 'look', type: 'llm', config: { userPrompt: 'Look.', images: ['{{img.output.images}}'] } },
          ],
          { text: '{{look.output.text}}', sent: '{{look.output.imagesSent}}' },
        ),
      ),
    );
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs).toMatchObject({ sent: 2, text: expect.stringContaining('I saw 2 images.') });
  });
});
