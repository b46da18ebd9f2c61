/**
 * The files a document extractor reads, as a run holds them: a Start input of type object (one file) or array (a
 * list of files), or an upstream node's output. A file is
 * - an artifact (`{ artifactId, … }`, as nodes output files, or an `art_…` id): read within the run's workspace;
 * - an object with its bytes in base64 (`data`, `base64` or `content`, plain or as a `data:…;base64,` URL) and its
 *   name (`name` or `filename`) and type (`contentType`, `mimeType`, `mime_type` or `type`), as the API takes it;
 * - an object or string with an http(s) `url` (Dify's remote files): downloaded through the SSRF guard;
 * - a `data:<type>;base64,` string.
 * Every read stops at `maxBytes` (FILE_TOO_LARGE); anything else is FILE_INPUT_INVALID.
 */
import { PaiError } from '../../errors';
import type { NodeArtifacts } from '../../artifacts/types';
import { fetchBytes } from '../../media/fetch-bytes';
import type { GuardedFetch } from '../../net/ssrf-guard';

export interface FileSource {
  artifacts?: NodeArtifacts;
  runId: string;
  fetch: GuardedFetch;
  signal: AbortSignal;
}

export interface FileBytes {
  name?: string;
  contentType?: string;
  bytes: Uint8Array;
}

const ARTIFACT_ID = /(?:^|\/)(art_[a-f0-9]{24})$/;
const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?(?:;[^,;]*)*;base64,([A-Za-z0-9+/=\s]*)$/i;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

const invalid = (path: string, message: string) => new PaiError('FILE_INPUT_INVALID', message, { path });
const tooLarge = (path: string, max: number, what = 'the file') =>
  new PaiError('FILE_TOO_LARGE', `${what} is larger than ${max} bytes (maxFileBytes)`, { path });

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

function decodeBase64(b64: string, path: string, max: number): Uint8Array {
  const clean = b64.replace(/\s/g, '');
  if (!BASE64.test(clean)) throw invalid(path, "the file's data is not base64");
  if (Math.floor((clean.length * 3) / 4) > max + 2) throw tooLarge(path, max);
  const bytes = new Uint8Array(Buffer.from(clean, 'base64'));
  if (bytes.byteLength > max) throw tooLarge(path, max);
  return bytes;
}

async function fromArtifact(src: FileSource, id: string, path: string, max: number): Promise<FileBytes> {
  if (!src.artifacts) throw new PaiError('ARTIFACTS_UNAVAILABLE', 'artifacts are not available here', { path });
  const { record, bytes } = await src.artifacts.read(src.runId, id);
  if (bytes.byteLength > max) throw tooLarge(path, max, `artifact ${id}`);
  return { name: record.name, contentType: record.contentType, bytes };
}

async function fromUrl(src: FileSource, url: string, path: string, max: number, name?: string): Promise<FileBytes> {
  const file = await fetchBytes(src.fetch, url, { maxBytes: max, signal: src.signal, path });
  const fromPath = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return { name: name ?? (fromPath || undefined), contentType: file.contentType || undefined, bytes: file.bytes };
}

function fromDataUrl(s: string, path: string, max: number, name?: string): FileBytes | undefined {
  const m = DATA_URL.exec(s);
  return m ? { name, contentType: m[1]?.toLowerCase(), bytes: decodeBase64(m[2], path, max) } : undefined;
}

/** One file value's bytes, name and declared type. */
export async function readFileValue(src: FileSource, v: unknown, path: string, max: number): Promise<FileBytes> {
  if (typeof v === 'string') {
    const s = v.trim();
    const data = fromDataUrl(s, path, max);
    if (data) return data;
    const art = ARTIFACT_ID.exec(s);
    if (art && (s === art[1] || s.startsWith('/api/'))) return fromArtifact(src, art[1], path, max);
    if (/^https?:\/\//i.test(s)) return fromUrl(src, s, path, max);
    throw invalid(path, 'a file must be a file object, an artifact, an http(s) URL or a data: URL, not plain text');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw invalid(
      path,
      `a file must be a file object, not ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v}`,
    );
  const o = v as Record<string, unknown>;
  if (typeof o.artifactId === 'string') return fromArtifact(src, o.artifactId, path, max);
  // Dify's files say `extension` (".pdf") beside a name that may lack it, and `type` "document" (no MIME type).
  const ext = text(o.extension)?.replace(/^\.?/, '.');
  const given = text(o.name) ?? text(o.filename);
  const name =
    given && ext && !given.toLowerCase().endsWith(ext.toLowerCase())
      ? `${given}${ext}`
      : (given ?? (ext && `file${ext}`));
  const mime = [o.contentType, o.mimeType, o.mime_type, o.type].map(text).find((t) => t?.includes('/'));
  const declared = mime;
  const b64 = text(o.data) ?? text(o.base64) ?? text(o.content);
  if (b64) {
    const data = fromDataUrl(b64, path, max, name);
    if (data) return { ...data, contentType: declared ?? data.contentType };
    return { name, contentType: declared, bytes: decodeBase64(b64, path, max) };
  }
  const url = text(o.url) ?? text(o.remote_url);
  if (url && /^https?:\/\//i.test(url)) {
    const file = await fromUrl(src, url, path, max, name);
    return { ...file, contentType: declared ?? file.contentType };
  }
  throw invalid(path, 'the file object has no content: give data (base64), an artifactId or an http(s) url');
}
