/**
 * Image inputs of the LLM and Agent nodes (vision): each entry of `config.images`, after its templates are resolved,
 * is an artifact (a node output `{ artifactId, … }`, an `art_…` id or its `/api/artifacts/…` URL: read within the
 * run's workspace), an http(s) URL (downloaded through the SSRF guard, never handed to the provider to fetch), or a
 * `data:image/…;base64,` string. Each becomes a data: URL, sent as an image_url content part of the user message.
 * A list (`{{img.output.images}}`) counts as its entries; an entry that resolved to nothing is left out.
 */
import { z } from 'zod';
import { PaiError } from '../errors';
import type { NodeArtifacts } from '../artifacts/types';
import type { GuardedFetch } from '../net/ssrf-guard';

/** What reading a node's image inputs needs of its context. */
interface ImageSource {
  artifacts?: NodeArtifacts;
  runId: string;
  fetch: GuardedFetch;
  signal: AbortSignal;
}
import { fetchBytes, sniffImageType } from './fetch-bytes';

export const MAX_IMAGES = 8;
/** Per image, decoded. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const imagesConfigSchema = z
  .array(z.string().max(14_000_000))
  .max(MAX_IMAGES)
  .default([])
  .describe(
    'Images for a vision model: an image node’s output ({{img.output}}), an artifact id, an http(s) URL or a ' +
      'data:image/…;base64, string (templates allowed)',
  );

const ARTIFACT_ID = /(?:^|\/)(art_[a-f0-9]{24})$/;
const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]+)$/i;

const invalid = (path: string, message: string) => new PaiError('INVALID_IMAGE_INPUT', message, { path });

function dataUrl(contentType: string, bytes: Uint8Array): string {
  return `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;
}

async function fromArtifact(ctx: Pick<ImageSource, 'artifacts' | 'runId'>, id: string, path: string) {
  if (!ctx.artifacts) throw new PaiError('ARTIFACTS_UNAVAILABLE', 'artifacts are not available here', { path });
  const { record, bytes } = await ctx.artifacts.read(ctx.runId, id);
  if (!record.contentType.startsWith('image/'))
    throw invalid(path, `artifact ${id} is ${record.contentType}, not an image`);
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw invalid(path, `artifact ${id} is larger than ${MAX_IMAGE_BYTES} bytes`);
  return dataUrl(record.contentType, bytes);
}

async function one(ctx: ImageSource, v: unknown, path: string) {
  if (v && typeof v === 'object' && typeof (v as { artifactId?: unknown }).artifactId === 'string')
    return fromArtifact(ctx, (v as { artifactId: string }).artifactId, path);
  if (typeof v !== 'string') throw invalid(path, 'an image must be an artifact, a URL or a data: URL');
  const s = v.trim();
  const data = DATA_URL.exec(s);
  if (data) {
    if (Math.floor((data[2].replace(/\s/g, '').length * 3) / 4) > MAX_IMAGE_BYTES)
      throw invalid(path, `the image is larger than ${MAX_IMAGE_BYTES} bytes`);
    return `data:${data[1].toLowerCase()};base64,${data[2].replace(/\s/g, '')}`;
  }
  const art = ARTIFACT_ID.exec(s);
  if (art && (s === art[1] || s.startsWith('/api/'))) return fromArtifact(ctx, art[1], path);
  if (/^https?:\/\//i.test(s)) {
    const file = await fetchBytes(ctx.fetch, s, { maxBytes: MAX_IMAGE_BYTES, signal: ctx.signal, path });
    const type = file.contentType.startsWith('image/') ? file.contentType : sniffImageType(file.bytes);
    if (!type)
      throw invalid(path, `${new URL(s).host} did not answer with an image (${file.contentType || 'no type'})`);
    return dataUrl(type, file.bytes);
  }
  throw invalid(path, 'an image must be an artifact, an http(s) URL or a data:image/…;base64, URL');
}

/** The data: URLs of a node's image inputs (`values`: config.images with its templates resolved). */
export async function imageInputs(ctx: ImageSource, values: unknown): Promise<string[]> {
  const list: Array<{ v: unknown; path: string }> = [];
  (Array.isArray(values) ? values : []).forEach((v, i) => {
    const path = `config.images[${i}]`;
    for (const x of Array.isArray(v) ? v : [v])
      if (x !== undefined && x !== null && x !== '') list.push({ v: x, path });
  });
  if (list.length > MAX_IMAGES) throw invalid('config.images', `at most ${MAX_IMAGES} images, not ${list.length}`);
  const out: string[] = [];
  for (const { v, path } of list) out.push(await one(ctx, v, path));
  return out;
}
