/**
 * Joins speech made in pieces into one file: WAV by concatenating the samples under one new header (wav.ts), raw
 * PCM and MP3 by concatenating bytes (MP3 is a stream of self-contained frames; an ID3 tag at the start of a later
 * piece is dropped). Opus, AAC and FLAC files cannot be joined that simply: text that needs more than one request
 * must use mp3, wav or pcm.
 */
import { PaiError } from '../errors';
import type { AudioFormat } from './types';
import { joinWav, parseWav } from './wav';

export const JOINABLE: ReadonlySet<AudioFormat> = new Set(['mp3', 'wav', 'pcm']);

/** Bytes of an ID3v2 tag at the start (its size is a 28-bit "syncsafe" integer). */
function id3Length(b: Uint8Array): number {
  if (b.length < 10 || b[0] !== 0x49 || b[1] !== 0x44 || b[2] !== 0x33) return 0;
  const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
  return Math.min(b.length, 10 + size + (b[5] & 0x10 ? 10 : 0));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export function joinAudio(format: AudioFormat, pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  switch (format) {
    case 'wav':
      return joinWav(pieces);
    case 'pcm':
      return concat(pieces);
    case 'mp3':
      return concat(pieces.map((p, i) => (i === 0 ? p : p.subarray(id3Length(p)))));
    default:
      throw new PaiError('TTS_FORMAT_NOT_JOINABLE', `${format} audio in ${pieces.length} pieces cannot be joined`, {
        path: 'config.format',
      });
  }
}

/** Duration of WAV or raw PCM (24 kHz, 16-bit mono) audio; undefined for compressed formats. */
export function durationMsOf(format: AudioFormat, audio: Uint8Array): number | undefined {
  if (format === 'wav') return parseWav(audio).durationMs;
  if (format === 'pcm') return Math.round((audio.byteLength / 48_000) * 1000);
  return undefined;
}
