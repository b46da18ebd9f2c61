// Guarantees: text for speech is split only at sentence boundaries (English . ! ?, Chinese 。！？, line breaks) into
// pieces no longer than the limit that together say the whole text; WAV pieces are joined into one WAV whose data
// size is the sum of the pieces' (header rewritten), streaming-size headers included; pieces of different formats are
// refused; MP3 pieces are concatenated without the later pieces' ID3 tags.
import { describe, expect, it } from 'vitest';
import { joinAudio } from '@/engine/media/join-audio';
import { sentencesOf, splitForSpeech } from '@/engine/media/split-text';
import { joinWav, parseWav, wavHeader } from '@/engine/media/wav';

const squash = (s: string) => s.replace(/\s+/g, '');

function wav(dataBytes: number, sampleRate = 24_000, fill = 1, streamingSize = false): Uint8Array {
  const h = wavHeader({ audioFormat: 1, channels: 1, sampleRate, bitsPerSample: 16 }, dataBytes);
  if (streamingSize) new DataView(h.buffer).setUint32(40, 0xffffffff, true);
  const out = new Uint8Array(44 + dataBytes).fill(fill);
  out.set(h, 0);
  return out;
}

describe('splitting text for speech', () => {
  it('finds English and Chinese sentence ends', () => {
    expect(sentencesOf('Hello there. How are you? Fine!\nNext line')).toEqual([
      'Hello there.',
      'How are you?',
      'Fine!',
      'Next line',
    ]);
    expect(sentencesOf('今天天气很好。我们去公园吧！你觉得呢？好的')).toEqual([
      '今天天气很好。',
      '我们去公园吧！',
      '你觉得呢？',
      '好的',
    ]);
  });

  it('packs whole sentences up to the limit and loses nothing', () => {
    const text = Array.from({ length: 30 }, (_, i) => `This is sentence number ${i + 1}, which is short.`).join(' ');
    const pieces = splitForSpeech(text, 120);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(120);
      expect(p).toMatch(/\.$/); // every piece ends where a sentence ends
    }
    expect(squash(pieces.join(' '))).toBe(squash(text));
  });

  it('splits Chinese text at 。！？ without spaces', () => {
    const text = '第一句话比较短。第二句话也不长！第三句话是一个问题吗？'.repeat(6);
    const pieces = splitForSpeech(text, 40);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(40);
      expect(p).toMatch(/[。！？]$/);
    }
    expect(pieces.join('')).toBe(text);
  });

  it('cuts a sentence longer than the limit at a comma or space', () => {
    const long = `${'word '.repeat(60).trim()}, ${'more '.repeat(30).trim()}.`;
    const pieces = splitForSpeech(long, 100);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(100);
    expect(squash(pieces.join(''))).toBe(squash(long));
  });
});

describe('joining audio', () => {
  it('joins WAV pieces: one header, data size = the sum of the pieces', () => {
    const pieces = [wav(1000, 24_000, 1), wav(2400, 24_000, 2), wav(600, 24_000, 3, true)];
    const joined = joinWav(pieces);
    const info = parseWav(joined);
    expect(info.dataBytes).toBe(1000 + 2400 + 600);
    expect(info.sampleRate).toBe(24_000);
    expect(info.dataOffset).toBe(44);
    expect(joined.byteLength).toBe(44 + 4000);
    expect(new DataView(joined.buffer).getUint32(4, true)).toBe(36 + 4000); // RIFF size rewritten
    expect(info.durationMs).toBe(Math.round((4000 / 48_000) * 1000));
    // The samples are the pieces' own, in order.
    expect([joined[44], joined[44 + 999], joined[44 + 1000], joined[44 + 3400]]).toEqual([1, 1, 2, 3]);
  });

  it('refuses WAV pieces of different formats', () => {
    expect(() => joinWav([wav(100, 24_000), wav(100, 22_050)])).toThrow(
      expect.objectContaining({ code: 'AUDIO_FORMAT_MISMATCH' }),
    );
  });

  it('concatenates MP3 pieces without the later ID3 tags', () => {
    const id3 = (body: number[]) => new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 2, 9, 9, ...body]);
    const out = joinAudio('mp3', [id3([1, 2]), id3([3, 4])]);
    expect([...out]).toEqual([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 2, 9, 9, 1, 2, 3, 4]);
  });

  it('refuses to join formats that cannot be concatenated', () => {
    expect(() => joinAudio('flac', [new Uint8Array(4), new Uint8Array(4)])).toThrow(
      expect.objectContaining({ code: 'TTS_FORMAT_NOT_JOINABLE' }),
    );
  });
});
