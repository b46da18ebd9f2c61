import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaiError } from '../errors';
import { checkUrl, createGuardedFetch, isPublicAddress, parseAllowlist, type Resolver } from './ssrf-guard';

// No network: every name resolves through this table; unknown names fail like ENOTFOUND.
const DNS: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'public6.test': ['2606:2800:220:1:248:1893:25c8:1946'],
  localhost: ['127.0.0.1', '::1'],
  'internal.test': ['10.0.0.5'],
  'mixed.test': ['93.184.216.34', '192.168.0.10'],
  'empty.test': [],
};
const resolver: Resolver = async (host) => {
  const a = DNS[host];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a;
};

async function expectBlocked(p: Promise<unknown>, code = 'SSRF_BLOCKED'): Promise<PaiError> {
  const err = await p.then(
    () => {
      throw new Error('expected the request to be refused');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaiError);
  expect((err as PaiError).code).toBe(code);
  return err as PaiError;
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    'not-an-ip',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])('accepts %s', (ip) =>
    expect(isPublicAddress(ip)).toBe(true),
  );
});

describe('checkUrl', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost:3000/admin',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:7f00:1]/',
    'http://2130706433/', // decimal 127.0.0.1
    'http://0177.0.0.1/', // octal
    'http://0x7f.1/', // hex, short form
    'http://0.0.0.0/',
    'http://internal.test/',
    'http://mixed.test/', // one public + one private record
    'http://empty.test/',
    'file:///etc/passwd',
    'gopher://x/',
    'ftp://public.test/',
    'data:text/plain,hi',
    'not a url',
  ])('refuses %s', async (url) => {
    await expectBlocked(checkUrl(url, { resolver }));
  });

  it('names the offending host and address', async () => {
    const err = await expectBlocked(checkUrl('http://mixed.test/x?token=secret', { resolver }));
    expect(err.message).toContain('mixed.test');
    expect(err.message).toContain('192.168.0.10');
    expect(err.message).not.toContain('secret');
  });

  it('allows public literals and names, returning the addresses to pin', async () => {
    await expect(checkUrl('http://93.184.216.34/', { resolver })).resolves.toMatchObject({ addresses: [] });
    const r = await checkUrl('https://PUBLIC.test/path', { resolver });
    expect(r.url.hostname).toBe('public.test');
    expect(r.addresses).toEqual(['93.184.216.34']);
    expect((await checkUrl('http://public6.test/', { resolver })).addresses).toHaveLength(1);
  });

  it('reports unresolvable names separately from SSRF', async () => {
    await expectBlocked(checkUrl('http://nowhere.test/', { resolver }), 'DNS_LOOKUP_FAILED');
  });

  it('lets exact allowlisted host:port through, and nothing else', async () => {
    const allowlist = parseAllowlist('localhost:3000, 10.0.0.5:8080,[::1]:9000');
    await expect(checkUrl('http://LOCALHOST:3000/x', { resolver, allowlist })).resolves.toBeTruthy();
    await expect(checkUrl('http://[::1]:9000/', { resolver, allowlist })).resolves.toBeTruthy();
    await expect(checkUrl('https://10.0.0.5:8080/', { resolver, allowlist })).resolves.toBeTruthy();
    await expectBlocked(checkUrl('http://localhost:3001/', { resolver, allowlist }));
    await expectBlocked(checkUrl('http://localhost/', { resolver, allowlist }));
    await expectBlocked(checkUrl('http://10.0.0.5/', { resolver, allowlist }));
  });
});

describe('parseAllowlist', () => {
  it('splits, trims, lower-cases and canonicalises entries', () => {
    expect(parseAllowlist(' Svc.Internal:8080 ,, 127.0.0.1:80,[0:0::1]:9000 ')).toEqual([
      'svc.internal:8080',
      '127.0.0.1:80',
      '[::1]:9000',
    ]);
  });
  it('drops entries without a valid port', () => {
    expect(parseAllowlist('svc.internal,svc:0,svc:70000,:80')).toEqual([]);
  });
  it('handles empty input', () => {
    expect(parseAllowlist(undefined)).toEqual([]);
    expect(parseAllowlist('')).toEqual([]);
  });
});

describe('createGuardedFetch against a local server', () => {
  let server: http.Server;
  let other: http.Server; // second origin, to observe what crosses a cross-origin redirect
  let base: string;
  let otherBase: string;
  let allowlist: string[];
  const seen: { url?: string; method?: string; auth?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, method: req.method, auth: req.headers.authorization, body });
        const redirect = (status: number, to: string) => res.writeHead(status, { location: to }).end();
        switch (req.url) {
          case '/to-metadata':
            return redirect(302, 'http://169.254.169.254/latest/meta-data');
          case '/to-internal':
            return redirect(301, 'http://internal.test/');
          case '/to-ok':
            return redirect(302, '/ok');
          case '/post-303':
            return redirect(303, '/ok');
          case '/post-307':
            return redirect(307, '/ok');
          case '/loop':
            return redirect(302, '/loop');
          case '/to-other':
            return redirect(302, `${otherBase}/ok`);
          case '/slow':
            return void setTimeout(() => res.end('late'), 2000);
          case '/ok':
            return res.end(`ok ${req.method}`);
          default:
            return res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    other = http.createServer((req, res) => {
      seen.push({ url: req.url, method: req.method, auth: req.headers.authorization, body: '' });
      res.end('other');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    allowlist = [`127.0.0.1:${port}`, new URL(otherBase).host];
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await new Promise<void>((r) => other.close(() => r()));
  });

  it('refuses the local server when it is not allowlisted', async () => {
    await expectBlocked(createGuardedFetch({ resolver })(`${base}/ok`));
  });

  it('fetches an allowlisted host:port', async () => {
    const res = await createGuardedFetch({ resolver, allowlist })(`${base}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok GET');
  });

  it('follows a redirect to another allowlisted path', async () => {
    const res = await createGuardedFetch({ resolver, allowlist })(`${base}/to-ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok GET');
  });

  it('re-checks redirects: metadata IP and private DNS names are refused', async () => {
    const f = createGuardedFetch({ resolver, allowlist });
    const e1 = await expectBlocked(f(`${base}/to-metadata`));
    expect(e1.message).toContain('169.254.169.254');
    const e2 = await expectBlocked(f(`${base}/to-internal`));
    expect(e2.message).toContain('internal.test');
  });

  it('turns POST into GET on 303 and keeps method and body on 307', async () => {
    const f = createGuardedFetch({ resolver, allowlist });
    seen.length = 0;
    expect(await (await f(`${base}/post-303`, { method: 'POST', body: 'x=1' })).text()).toBe('ok GET');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', body: '' });
    expect(await (await f(`${base}/post-307`, { method: 'POST', body: 'x=1' })).text()).toBe('ok POST');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: 'x=1' });
  });

  it('keeps headers on same-origin redirects', async () => {
    seen.length = 0;
    await createGuardedFetch({ resolver, allowlist })(`${base}/to-ok`, { headers: { authorization: 'Bearer t' } });
    expect(seen.map((s) => s.auth)).toEqual(['Bearer t', 'Bearer t']);
  });

  it('drops credentials on cross-origin redirects', async () => {
    seen.length = 0;
    const res = await createGuardedFetch({ resolver, allowlist })(`${base}/to-other`, {
      headers: { authorization: 'Bearer t' },
    });
    expect(await res.text()).toBe('other');
    expect(seen.map((s) => s.auth)).toEqual(['Bearer t', undefined]);
  });

  it('stops after maxRedirects', async () => {
    await expectBlocked(
      createGuardedFetch({ resolver, allowlist, maxRedirects: 3 })(`${base}/loop`),
      'TOO_MANY_REDIRECTS',
    );
  });

  it('aborts after timeoutMs and honours the caller signal', async () => {
    const f = createGuardedFetch({ resolver, allowlist });
    await expect(f(`${base}/slow`, { timeoutMs: 100 })).rejects.toMatchObject({ name: 'TimeoutError' });
    const ac = new AbortController();
    const p = f(`${base}/slow`, { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
