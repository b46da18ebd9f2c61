/**
 * What the offline demo provider answers for media: real speech from the offline synthesizer (espeak-ng, in a worker
 * thread), always WAV, in the language of the text (Mandarin for Chinese text, else English) with a voice variant
 * chosen from the OpenAI voice name; and deterministic pattern images (demo-image.ts), not pictures of the prompt.
 */
import { speakInWorker } from '../cpu/tasks';
import { demoImagePng } from './demo-image';
import type { ImageRequest, ImageResponse, SpeechRequest, SpeechResponse } from './types';

/** OpenAI's voices → espeak-ng variants (m = male-sounding, f = female-sounding). */
const VARIANTS: Record<string, string> = {
  alloy: 'm3',
  ash: 'm4',
  ballad: 'm6',
  coral: 'f2',
  echo: 'm1',
  fable: 'm5',
  onyx: 'm2',
  nova: 'f3',
  sage: 'f5',
  shimmer: 'f4',
  verse: 'm7',
  marin: 'f1',
  cedar: 'm8',
};

/** The espeak-ng language for a text: Mandarin when Han characters are a fair share of its letters, else English. */
export function offlineLanguageOf(text: string): string {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const kana = (text.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  const hangul = (text.match(/\p{Script=Hangul}/gu) ?? []).length;
  const letters = (text.match(/\p{L}/gu) ?? []).length || 1;
  if (kana / letters > 0.1) return 'ja';
  if (hangul / letters > 0.2) return 'ko';
  return han / letters > 0.2 ? 'cmn' : 'en';
}

/** An espeak voice for an OpenAI voice name; an espeak voice (`en+f3`, `cmn`) is used as is. */
export function offlineVoiceOf(voice: string, text: string): string {
  if (Object.hasOwn(VARIANTS, voice)) return `${offlineLanguageOf(text)}+${VARIANTS[voice]}`;
  if (/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*(\+[A-Za-z0-9_-]{1,20})?$/.test(voice)) return voice;
  return `${offlineLanguageOf(text)}+${VARIANTS.alloy}`;
}

export async function demoSpeech(req: SpeechRequest): Promise<SpeechResponse> {
  const audio = await speakInWorker(req.input, {
    voice: offlineVoiceOf(req.voice, req.input),
    wordsPerMinute: 175 * req.speed,
    signal: req.signal,
  });
  return { audio, format: 'wav', model: req.model || 'demo', provider: 'demo' };
}

const DEMO_MAX_SIDE = 512;

export async function demoImages(req: ImageRequest): Promise<ImageResponse> {
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(req.size ?? '');
  const scale = m ? Math.min(1, DEMO_MAX_SIDE / Math.max(Number(m[1]), Number(m[2]))) : 1;
  const width = m ? Math.max(16, Math.round(Number(m[1]) * scale)) : 256;
  const height = m ? Math.max(16, Math.round(Number(m[2]) * scale)) : 256;
  const images = Array.from({ length: req.n }, (_, i) => ({
    bytes: demoImagePng(req.prompt, i, width, height),
    contentType: 'image/png',
  }));
  return { images, model: req.model || 'demo', provider: 'demo' };
}
