// Guarantees: the SigV4 signer reproduces AWS's published signatures (the SigV4 test suite's get-vanilla,
// get-vanilla-empty-query-key and post-vanilla, and the S3 documentation's GET Object example), and the S3 blob
// store talks to an S3-compatible server the way S3 expects: path-style URLs, a signed Authorization header naming
// x-amz-content-sha256 (the body's hash), and ListObjectsV2 followed through its continuation tokens; a missing
// object is null, a refused request an ARTIFACT_STORAGE_ERROR without the keys in it.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStoreOf } from '@/engine/artifacts/create-artifacts';
import { S3BlobStore } from '@/engine/artifacts/s3-blob-store';
import { sha256Hex, signV4 } from '@/engine/artifacts/sigv4';

const SUITE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SUITE_DATE = new Date('2015-08-30T12:36:00Z');
const suite = (method: string, url: string) =>
  signV4(
    {
      method,
      url: new URL(url),
      headers: {},
      payloadHash: sha256Hex(''),
      region: 'us-east-1',
      service: 'service',
      date: SUITE_DATE,
    },
    SUITE,
  ).authorization;

describe('SigV4 against AWS published examples', () => {
  it('get-vanilla', () => {
    expect(suite('GET', 'https://example.amazonaws.com/')).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
        'SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('get-vanilla-empty-query-key', () => {
    expect(suite('GET', 'https://example.amazonaws.com/?Param1=value1')).toContain(
      'Signature=a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb',
    );
  });

  it('post-vanilla', () => {
    expect(suite('POST', 'https://example.amazonaws.com/')).toContain(
      'Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b',
    );
  });

  it("the S3 documentation's GET Object example", () => {
    const empty = sha256Hex('');
    const h = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { range: 'bytes=0-9', 'x-amz-content-sha256': empty },
        payloadHash: empty,
        region: 'us-east-1',
        service: 's3',
        date: new Date('2013-05-24T00:00:00Z'),
      },
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    );
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(h['x-amz-date']).toBe('20130524T000000Z');
  });
});

describe('the S3 blob store against an S3-compatible server', () => {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const seen: Array<{ method: string; url: string; auth: string; hash: string; bodyHash: string }> = [];
  let server: Server;
  let endpoint: string;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: String(req.headers.authorization ?? ''),
        hash: String(req.headers['x-amz-content-sha256'] ?? ''),
        bodyHash: createHash('sha256').update(body).digest('hex'),
      });
      if (!String(req.headers.authorization).includes('Credential=minio-user/')) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<Error><Code>InvalidAccessKeyId</Code></Error>');
      }
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = rest.map(decodeURIComponent).join('/');
      if (bucket !== 'media') return res.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
      if (req.method === 'PUT') {
        objects.set(key, { body, type: String(req.headers['content-type']) });
        return res.writeHead(200).end();
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        // Two keys a page, so the store must follow the continuation token.
        const prefix = url.searchParams.get('prefix') ?? '';
        const all = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
        const from = Number(url.searchParams.get('continuation-token') ?? 0);
        const page = all.slice(from, from + 2);
        const more = from + 2 < all.length;
        const xml =
          `<ListBucketResult><IsTruncated>${more}</IsTruncated>` +
          page
            .map((k) => `<Contents><Key>${k}</Key><LastModified>2020-01-01T00:00:00.000Z</LastModified></Contents>`)
            .join('') +
          (more ? `<NextContinuationToken>${from + 2}</NextContinuationToken>` : '') +
          '</ListBucketResult>';
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(xml);
      }
      const o = objects.get(key);
      if (!o) return res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(200, { 'content-type': o.type });
      res.end(o.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const store = () =>
    new S3BlobStore({
      endpoint,
      bucket: 'media',
      region: 'eu-central-1',
      accessKeyId: 'minio-user',
      secretAccessKey: 'minio-secret-value',
    });

  it('puts, gets, lists across pages and deletes, signing every request', async () => {
    const s = store();
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    await s.put('runs/run_1/art_a', bytes, 'audio/wav');
    for (const k of ['art_b', 'art_c', 'art_d']) await s.put(`runs/run_1/${k}`, new Uint8Array([9]), 'image/png');
    expect(objects.get('runs/run_1/art_a')?.type).toBe('audio/wav');
    expect([...((await s.get('runs/run_1/art_a')) ?? [])]).toEqual([1, 2, 3, 4, 5]);
    expect(await s.get('runs/run_1/missing')).toBeNull();

    const keys: string[] = [];
    for await (const o of s.list('runs/')) keys.push(o.key);
    expect(keys).toEqual(['runs/run_1/art_a', 'runs/run_1/art_b', 'runs/run_1/art_c', 'runs/run_1/art_d']);

    await s.delete('runs/run_1/art_a');
    await s.delete('runs/run_1/art_a'); // already gone: no error
    expect(objects.has('runs/run_1/art_a')).toBe(false);

    const put = seen.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/media/runs/run_1/art_a');
    expect(put.hash).toBe(put.bodyHash);
    for (const r of seen) {
      expect(r.auth).toMatch(
        /^AWS4-HMAC-SHA256 Credential=minio-user\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host;[a-z0-9;-]*x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
      );
      expect(r.hash).toBe(r.bodyHash);
    }
    expect(seen.filter((r) => r.url.includes('list-type=2')).length).toBe(2); // followed the continuation token
  });

  it('reports a refused request without the keys', async () => {
    const bad = new S3BlobStore({
      endpoint,
      bucket: 'media',
      region: 'us-east-1',
      accessKeyId: 'someone-else',
      secretAccessKey: 'top-secret-value',
    });
    const err = await bad.put('runs/r/art_x', new Uint8Array([1]), 'image/png').catch((e) => e);
    expect(err).toMatchObject({ code: 'ARTIFACT_STORAGE_ERROR' });
    expect(err.message).toContain('InvalidAccessKeyId');
    expect(err.message).not.toContain('top-secret-value');
    expect(err.message).not.toContain('someone-else');
  });

  it('is chosen by ARTIFACTS_S3_*, all or none', () => {
    const none = {
      ARTIFACTS_S3_ENDPOINT: undefined,
      ARTIFACTS_S3_BUCKET: undefined,
      ARTIFACTS_S3_ACCESS_KEY_ID: undefined,
      ARTIFACTS_S3_SECRET_ACCESS_KEY: undefined,
      ARTIFACTS_S3_REGION: 'us-east-1',
      ARTIFACTS_RETENTION_DAYS: 0,
      ARTIFACTS_MAX_BYTES: 1000,
    };
    expect(blobStoreOf(none, '/tmp/x').kind).toBe('local');
    const all = {
      ...none,
      ARTIFACTS_S3_ENDPOINT: endpoint,
      ARTIFACTS_S3_BUCKET: 'media',
      ARTIFACTS_S3_ACCESS_KEY_ID: 'minio-user',
      ARTIFACTS_S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(blobStoreOf(all, '/tmp/x').kind).toBe('s3');
    expect(() => blobStoreOf({ ...all, ARTIFACTS_S3_BUCKET: undefined }, '/tmp/x')).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining('ARTIFACTS_S3_BUCKET') }),
    );
    expect(() => blobStoreOf({ ...none, ARTIFACTS_S3_BUCKET: 'media' }, '/tmp/x')).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });
});
