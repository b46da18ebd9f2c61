/**
 * Speech and image generation as an LLM provider offers them (LlmProvider.speech / .images): the OpenAI-compatible
 * provider calls /audio/speech and /images/generations, the offline demo answers with a real offline synthesizer
 * and a deterministic pattern.
 */

export const AUDIO_FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  // OpenAI's raw PCM: 24 kHz, 16-bit signed little-endian, mono.
  pcm: 'audio/L16;rate=24000;channels=1',
};

export interface SpeechRequest {
  model: string;
  voice: string;
  input: string;
  format: AudioFormat;
  /** 0.25 – 4.0 */
  speed: number;
  /** How to speak (newer models, e.g. gpt-4o-mini-tts); omitted when empty. */
  instructions?: string;
  signal?: AbortSignal;
}

export interface SpeechResponse {
  audio: Uint8Array;
  /** What was produced (the offline synthesizer always answers WAV). */
  format: AudioFormat;
  model: string;
  provider: string;
}

export interface ImageRequest {
  model: string;
  prompt: string;
  n: number;
  /** e.g. `1024x1024`; omitted: the provider's default. */
  size?: string;
  quality?: string;
  /** Omitted: the provider's default (gpt-image-1 always answers b64_json, dall-e a URL). */
  responseFormat?: 'url' | 'b64_json';
  signal?: AbortSignal;
}

export interface GeneratedImage {
  b64?: string;
  url?: string;
  revisedPrompt?: string;
  /** Set by the demo: the bytes themselves. */
  bytes?: Uint8Array;
  contentType?: string;
}

export interface ImageResponse {
  images: GeneratedImage[];
  model: string;
  provider: string;
}
