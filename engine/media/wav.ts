/**
 * RIFF/WAVE reading and joining, for speech made in pieces: the pieces' PCM data are concatenated under one new
 * header (their formats must agree). Streaming encoders write 0 or 0xFFFFFFFF as the data size; such a chunk is
 * taken to run to the end of the file.
 */
import { PaiError } from '../errors';

export interface WavInfo {
  /** 1 = PCM, 3 = IEEE float, … */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Where the samples start and how many bytes they are. */
  dataOffset: number;
  dataBytes: number;
  durationMs: number;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const bad = (why: string) => new PaiError('AUDIO_INVALID', `not a WAV file the pieces can be joined from: ${why}`);

export function parseWav(bytes: Uint8Array): WavInfo {
  if (bytes.byteLength < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE')
    throw bad('no RIFF/WAVE header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'durationMs'> | undefined;
  let at = 12;
  while (at + 8 <= bytes.byteLength) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) throw bad('short fmt chunk');
      fmt = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw bad('data before fmt');
      const rest = bytes.byteLength - body;
      const dataBytes = size === 0 || size === 0xffffffff || size > rest ? rest : size;
      const perSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return {
        ...fmt,
        dataOffset: body,
        dataBytes,
        durationMs: perSecond > 0 ? Math.round((dataBytes / perSecond) * 1000) : 0,
      };
    }
    at = body + size + (size % 2); // chunks are padded to an even size
  }
  throw bad('no data chunk');
}

/** A canonical 44-byte header for `dataBytes` of samples. */
export function wavHeader(
  f: Pick<WavInfo, 'audioFormat' | 'channels' | 'sampleRate' | 'bitsPerSample'>,
  dataBytes: number,
) {
  const h = new Uint8Array(44);
  const v = new DataView(h.buffer);
  const put = (at: number, s: string) => [...s].forEach((c, i) => (h[at + i] = c.charCodeAt(0)));
  const blockAlign = f.channels * (f.bitsPerSample / 8);
  put(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, f.audioFormat, true);
  v.setUint16(22, f.channels, true);
  v.setUint32(24, f.sampleRate, true);
  v.setUint32(28, f.sampleRate * blockAlign, true);
  v.setUint16(32, blockAlign, true);
  v.setUint16(34, f.bitsPerSample, true);
  put(36, 'data');
  v.setUint32(40, dataBytes, true);
  return h;
}

/** One WAV of the pieces' samples in order; AUDIO_FORMAT_MISMATCH when their formats differ. */
export function joinWav(pieces: Uint8Array[]): Uint8Array {
  if (!pieces.length) throw bad('nothing to join');
  const infos = pieces.map(parseWav);
  const f = infos[0];
  const other = infos.find(
    (i) =>
      i.audioFormat !== f.audioFormat ||
      i.channels !== f.channels ||
      i.sampleRate !== f.sampleRate ||
      i.bitsPerSample !== f.bitsPerSample,
  );
  if (other)
    throw new PaiError(
      'AUDIO_FORMAT_MISMATCH',
      `the speech pieces have different formats (${f.sampleRate} Hz × ${f.channels} vs ${other.sampleRate} Hz × ` +
        `${other.channels}); they cannot be joined`,
    );
  const total = infos.reduce((n, i) => n + i.dataBytes, 0);
  const out = new Uint8Array(44 + total);
  out.set(wavHeader(f, total), 0);
  let at = 44;
  pieces.forEach((p, k) => {
    out.set(p.subarray(infos[k].dataOffset, infos[k].dataOffset + infos[k].dataBytes), at);
    at += infos[k].dataBytes;
  });
  return out;
}
