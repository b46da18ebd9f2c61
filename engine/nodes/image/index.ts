/**
 * The image node: prompt → images through an OpenAI-compatible /images/generations (model, size, n), each stored as
 * an artifact of the run. A provider that answers URLs instead of base64 is downloaded through the SSRF guard (the
 * URL is the provider's, but a compatible server could name any address). Offline, the demo provider answers
 * deterministic pattern PNGs, and the output says they are a demo.
 */
import { z } from 'zod';
import { PaiError } from '../../errors';
import type { ArtifactRef } from '../../artifacts/types';
import { fetchBytes, sniffImageType } from '../../media/fetch-bytes';
import type { GeneratedImage } from '../../media/types';
import { defineNode, type NodeContext } from '../../node-kit/define';
import { credentialIdSchema, providerConfigSchema, providerSettings, scrubbedError } from '../shared/provider-settings';
import { ARTIFACT_OUTPUT_FIELDS } from '../shared/artifact-output-fields';

/** A generated image, decoded; larger ones fail (ARTIFACTS_MAX_BYTES still applies when it is stored). */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export const imageConfigSchema = z.strictObject({
  prompt: z.string().min(1, 'the prompt is required').max(32_000).describe('What to draw; may contain {{refs}}'),
  model: z.string().min(1).default('gpt-image-1').describe('Image model as the provider knows it (dall-e-3, …)'),
  size: z
    .string()
    .regex(/^(auto|\d{2,5}x\d{2,5})$/, 'a size like 1024x1024, or auto')
    .optional()
    .describe('e.g. 1024x1024; default: the model’s'),
  n: z.number().int().min(1).max(10).default(1).describe('How many images'),
  quality: z.string().max(20).optional().describe('e.g. low, medium, high, hd; default: the model’s'),
  responseFormat: z
    .enum(['b64_json', 'url'])
    .optional()
    .describe('Ask for base64 or a URL (dall-e models); default: the model’s'),
  fileName: z.string().max(100).default('image').describe('Name of the image files (without extension)'),
  credentialId: credentialIdSchema,
  provider: providerConfigSchema,
});
export type ImageConfig = z.infer<typeof imageConfigSchema>;

async function bytesOf(ctx: NodeContext<ImageConfig>, img: GeneratedImage, i: number) {
  const path = `output.images[${i}]`;
  if (img.bytes) return { bytes: img.bytes, contentType: img.contentType ?? sniffImageType(img.bytes) ?? 'image/png' };
  if (img.b64) {
    const bytes = new Uint8Array(Buffer.from(img.b64, 'base64'));
    if (bytes.byteLength > MAX_IMAGE_BYTES)
      throw new PaiError('FILE_TOO_LARGE', `image ${i + 1} is larger than ${MAX_IMAGE_BYTES} bytes`);
    return { bytes, contentType: sniffImageType(bytes) ?? 'image/png' };
  }
  if (img.url) {
    const file = await fetchBytes(ctx.fetch, img.url, { maxBytes: MAX_IMAGE_BYTES, signal: ctx.signal, path });
    const contentType = sniffImageType(file.bytes) ?? (file.contentType.startsWith('image/') ? file.contentType : '');
    if (!contentType)
      throw new PaiError('IMAGE_INVALID', `the provider's URL for image ${i + 1} did not answer an image`);
    return { bytes: file.bytes, contentType };
  }
  throw new PaiError('IMAGE_INVALID', `the provider answered no data for image ${i + 1}`);
}

export const imageNode = defineNode<ImageConfig>({
  type: 'image',
  version: 1,
  label: 'Image generation',
  category: 'ai',
  description:
    'Generates images with an OpenAI-compatible /images/generations model (offline: deterministic demo ' +
    'patterns) and stores them as run artifacts.',
  configSchema: imageConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [
    ...ARTIFACT_OUTPUT_FIELDS,
    { path: 'images', description: 'Every image generated: artifactId, url, contentType …' },
    { path: 'count', description: 'How many images' },
  ],
  async execute(ctx) {
    const c = ctx.config;
    if (!ctx.artifacts) throw new PaiError('ARTIFACTS_UNAVAILABLE', 'artifacts are not available here');
    const prompt = (typeof c.prompt === 'string' ? c.prompt : JSON.stringify(c.prompt ?? '')).trim();
    if (!prompt)
      throw new PaiError('INVALID_CONFIG', 'the prompt is empty after resolving its references', {
        path: 'config.prompt',
      });
    const settings = await providerSettings(ctx, c);
    const provider = ctx.llm(settings);
    try {
      if (!provider.images)
        throw new PaiError('IMAGE_UNSUPPORTED', `${provider.label} offers no image generation`, {
          path: 'config.model',
        });
      const res = await provider.images({
        model: c.model,
        prompt,
        n: c.n,
        size: c.size,
        quality: c.quality,
        responseFormat: c.responseFormat,
        signal: ctx.signal,
      });
      if (!res.images.length) throw new PaiError('IMAGE_INVALID', 'the provider answered no images');
      const images: ArtifactRef[] = [];
      for (const [i, img] of res.images.slice(0, c.n).entries()) {
        const { bytes, contentType } = await bytesOf(ctx, img, i);
        const suffix = res.images.length > 1 ? `-${i + 1}` : '';
        images.push(
          await ctx.artifacts.save(ctx.runId, ctx.nodeId, {
            bytes,
            contentType,
            name: `${c.fileName || 'image'}${suffix}.${EXT[contentType] ?? 'img'}`,
            key: `${ctx.idempotencyKey}:image:${i}`,
          }),
        );
      }
      const revised = res.images.map((x) => x.revisedPrompt).filter((x): x is string => !!x);
      const demo = provider.id === 'demo';
      return {
        output: {
          // The first image's reference at the top, so {{img.output}} is an image; all of them in `images`.
          ...images[0],
          images,
          count: images.length,
          model: res.model,
          provider: provider.id,
          providerLabel: provider.label,
          ...(revised.length ? { revisedPrompts: revised } : {}),
          ...(demo ? { demo: true, note: 'offline demo: a pattern derived from the prompt, not a picture of it' } : {}),
        },
      };
    } catch (e) {
      throw scrubbedError(e, [settings.apiKey]);
    }
  },
});
