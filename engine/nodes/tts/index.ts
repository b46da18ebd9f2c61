/**
 * The TTS node: text → speech through an OpenAI-compatible /audio/speech (model, voice, format, speed), or offline
 * through the demo provider's real synthesizer (espeak-ng, always WAV) when no key is configured. Long text is split
 * at sentence boundaries (engine/media/split-text.ts), each piece is one request, and the audio is joined
 * (engine/media/join-audio.ts) and stored as one artifact of the run. With `speakers`, lines `Name: text` are spoken
 * in that speaker's voice (a two-voice podcast script).
 */
import { z } from 'zod';
import { PaiError } from '../../errors';
import { durationMsOf, joinAudio, JOINABLE } from '../../media/join-audio';
import { splitForSpeech } from '../../media/split-text';
import { AUDIO_CONTENT_TYPES, AUDIO_FORMATS, type AudioFormat } from '../../media/types';
import { defineNode } from '../../node-kit/define';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from '../shared/provider-settings';
import { ARTIFACT_OUTPUT_FIELDS } from '../shared/artifact-output-fields';

/** Requests one node may make (200 000 characters at the default piece size is 50). */
const MAX_PIECES = 100;
const EXTENSIONS: Record<AudioFormat, string> = {
  mp3: 'mp3',
  wav: 'wav',
  opus: 'ogg',
  aac: 'aac',
  flac: 'flac',
  pcm: 'pcm',
};

export const ttsConfigSchema = z.strictObject({
  text: z.string().min(1, 'the text is required').max(200_000).describe('What to say; may contain {{refs}}'),
  model: z.string().min(1).default('gpt-4o-mini-tts').describe('Speech model as the provider knows it (tts-1, …)'),
  voice: z
    .string()
    .min(1)
    .max(64)
    .default('alloy')
    .describe('alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse, …'),
  format: z.enum(AUDIO_FORMATS).default('mp3').describe('Audio format (offline: always wav)'),
  speed: z.number().min(0.25).max(4).default(1),
  instructions: z.string().max(4000).default('').describe('How to speak (tone, accent; newer models only)'),
  speakers: z
    .array(z.strictObject({ name: z.string().min(1).max(40), voice: z.string().min(1).max(64) }))
    .max(10)
    .default([])
    .describe('Dialogue: a line "Name: text" is spoken in that speaker’s voice (the name is not spoken)'),
  maxCharsPerRequest: z
    .number()
    .int()
    .min(50)
    .max(4096)
    .default(4000)
    .describe('Longer text is split at sentence boundaries into requests of at most this many characters'),
  fileName: z.string().max(100).default('speech').describe('Name of the audio file (without extension)'),
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
});
export type TtsConfig = z.infer<typeof ttsConfigSchema>;

const asText = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** The text as segments of one voice each: `speakers` lines switch voices, other lines keep the current one. */
export function voiceSegments(text: string, voice: string, speakers: TtsConfig['speakers']) {
  if (!speakers.length) return [{ voice, text }];
  const byName = new Map(speakers.map((s) => [s.name.trim().toLowerCase(), s.voice]));
  const out: Array<{ voice: string; text: string }> = [];
  let current = voice;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*\**([^:：\n*]{1,40})\**\s*[:：]\s*(.*)$/.exec(line);
    const named = m ? byName.get(m[1].trim().toLowerCase()) : undefined;
    if (named) current = named;
    const said = named ? m![2] : line;
    if (!said.trim()) continue;
    const last = out[out.length - 1];
    if (last?.voice === current) last.text += `\n${said}`;
    else out.push({ voice: current, text: said });
  }
  return out;
}

export const ttsNode = defineNode<TtsConfig>({
  type: 'tts',
  version: 1,
  label: 'Text to speech',
  category: 'ai',
  description:
    'Speaks text with an OpenAI-compatible /audio/speech model (offline: a real espeak-ng voice, WAV) and stores ' +
    'the audio as a run artifact.',
  configSchema: ttsConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    ...ARTIFACT_OUTPUT_FIELDS,
    { path: 'durationMs', description: 'The audio length in ms (WAV, PCM)' },
    { path: 'format', description: 'mp3, wav, pcm …' },
    { path: 'pieces', description: 'How many requests the text was split into' },
  ],
  async execute(ctx) {
    const c = ctx.config;
    if (!ctx.artifacts) throw new PaiError('ARTIFACTS_UNAVAILABLE', 'artifacts are not available here');
    const text = asText(c.text).trim();
    if (!text)
      throw new PaiError('INVALID_CONFIG', 'the text is empty after resolving its references', { path: 'config.text' });
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    try {
      if (!provider.speech)
        throw new PaiError('TTS_UNSUPPORTED', `${provider.label} offers no speech`, { path: 'config.model' });
      const pieces = voiceSegments(text, c.voice, c.speakers).flatMap((s) =>
        splitForSpeech(s.text, c.maxCharsPerRequest).map((t) => ({ voice: s.voice, text: t })),
      );
      if (pieces.length > MAX_PIECES)
        throw new PaiError(
          'TTS_TEXT_TOO_LONG',
          `the text needs ${pieces.length} requests of ${c.maxCharsPerRequest} characters; at most ${MAX_PIECES}`,
          { path: 'config.text' },
        );
      if (pieces.length > 1 && !JOINABLE.has(c.format) && provider.id !== 'demo')
        throw new PaiError(
          'TTS_FORMAT_NOT_JOINABLE',
          `the text needs ${pieces.length} requests, and ${c.format} audio cannot be joined: use mp3, wav or pcm`,
          { path: 'config.format' },
        );
      const audio: Uint8Array[] = [];
      let format: AudioFormat = c.format;
      let model = c.model;
      for (const [i, piece] of pieces.entries()) {
        if (pieces.length > 1) ctx.emit('node.progress', { speech: { piece: i + 1, of: pieces.length } });
        const res = await provider.speech({
          model: c.model,
          voice: piece.voice,
          input: piece.text,
          format: c.format,
          speed: c.speed,
          instructions: c.instructions || undefined,
          signal: ctx.signal,
        });
        if (i > 0 && res.format !== format)
          throw new PaiError('AUDIO_FORMAT_MISMATCH', 'the speech pieces came back in different formats');
        format = res.format;
        model = res.model;
        audio.push(res.audio);
      }
      const joined = joinAudio(format, audio);
      const ref = await ctx.artifacts.save(ctx.runId, ctx.nodeId, {
        bytes: joined,
        contentType: AUDIO_CONTENT_TYPES[format],
        name: `${c.fileName || 'speech'}.${EXTENSIONS[format]}`,
        key: `${ctx.idempotencyKey}:audio`,
      });
      const durationMs = durationMsOf(format, joined);
      const demo = provider.id === 'demo';
      return {
        output: {
          ...ref,
          ...(durationMs !== undefined ? { durationMs } : {}),
          format,
          pieces: pieces.length,
          characters: pieces.reduce((n, p) => n + p.text.length, 0),
          model,
          provider: provider.id,
          providerLabel: provider.label,
          ...(demo ? { demo: true, note: 'offline synthesizer (espeak-ng), not the configured model' } : {}),
        },
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
