/**
 * Blob store on S3-compatible storage (AWS S3, MinIO, Cloudflare R2, …) over plain HTTP with SigV4 (sigv4.ts): four
 * calls, PUT / GET / DELETE Object and ListObjectsV2, path-style (`<endpoint>/<bucket>/<key>`), which every
 * S3-compatible server accepts. The endpoint is the administrator's (ARTIFACTS_S3_*), not a workflow's, so it is
 * called with the process's own fetch like OPENAI_BASE_URL is; credentials never appear in an error.
 */
import { PaiError } from '../errors';
import { checkBlobKey } from './blob-key';
import { rfc3986, sha256Hex, signV4, type AwsCredentials } from './sigv4';
import type { BlobStore } from './types';

export interface S3Options extends AwsCredentials {
  /** e.g. `http://127.0.0.1:9000` (MinIO) or `https://s3.eu-central-1.amazonaws.com`. */
  endpoint: string;
  bucket: string;
  region: string;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unxml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]);
const tag = (xml: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly location: string;
  private readonly base: URL;
  private readonly fetch: typeof globalThis.fetch;

  constructor(private readonly o: S3Options) {
    this.base = new URL(o.endpoint.replace(/\/+$/, '') + '/');
    this.location = `${this.base.host}/${o.bucket}`;
    this.fetch = o.fetch ?? globalThis.fetch;
  }

  private urlOf(key?: string): URL {
    const path = key === undefined ? '' : '/' + checkBlobKey(key).split('/').map(rfc3986).join('/');
    return new URL(`${this.base.pathname}${rfc3986(this.o.bucket)}${path}`, this.base);
  }

  private async send(method: string, url: URL, body?: Uint8Array, extra: Record<string, string> = {}) {
    const payloadHash = sha256Hex(body ?? '');
    const headers = signV4(
      {
        method,
        url,
        headers: { ...extra, 'x-amz-content-sha256': payloadHash },
        payloadHash,
        region: this.o.region,
        service: 's3',
        date: new Date(),
      },
      this.o,
    );
    delete headers.host; // fetch sets it (from the URL, the value that was signed)
    let res: Response;
    try {
      res = await this.fetch(url, {
        method,
        headers,
        body: body as BodyInit | undefined,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new PaiError('ARTIFACT_STORAGE_UNAVAILABLE', `the artifact storage (${this.location}) did not answer`, {
        retryable: true,
        cause: e,
      });
    }
    return res;
  }

  private async fail(op: string, res: Response): Promise<never> {
    const text = await res.text().catch(() => '');
    const code = tag(text, 'Code') ?? `HTTP ${res.status}`;
    throw new PaiError('ARTIFACT_STORAGE_ERROR', `the artifact storage (${this.location}) refused ${op}: ${code}`, {
      retryable: res.status >= 500 || res.status === 429,
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const res = await this.send('PUT', this.urlOf(key), bytes, { 'content-type': contentType });
    if (!res.ok) await this.fail('a write', res);
    await res.arrayBuffer().catch(() => undefined);
  }

  async get(key: string): Promise<Uint8Array | null> {
    const res = await this.send('GET', this.urlOf(key));
    if (res.status === 404) {
      await res.arrayBuffer().catch(() => undefined);
      return null;
    }
    if (!res.ok) await this.fail('a read', res);
    return new Uint8Array(await res.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', this.urlOf(key));
    if (!res.ok && res.status !== 404) await this.fail('a delete', res);
    await res.arrayBuffer().catch(() => undefined);
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const url = this.urlOf();
      url.searchParams.set('list-type', '2');
      if (prefix) url.searchParams.set('prefix', prefix);
      if (token) url.searchParams.set('continuation-token', token);
      const res = await this.send('GET', url);
      if (!res.ok) await this.fail('a listing', res);
      const xml = await res.text();
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = unxml(tag(m[1], 'Key') ?? '');
        const modified = new Date(tag(m[1], 'LastModified') ?? 0);
        if (key) yield { key, modifiedAt: Number.isNaN(modified.getTime()) ? new Date(0) : modified };
      }
      const next = tag(xml, 'NextContinuationToken');
      token = tag(xml, 'IsTruncated') === 'true' && next ? unxml(next) : undefined;
    } while (token);
  }
}
