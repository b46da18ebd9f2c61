// Guarantees (DNS rebinding): the production server answers only for the host names it is told are its own
// (PUBLIC_URL, one origin or a list), for localhost and for IP literals, which no attacker's DNS name can be; behind a
// trusted proxy the proxy's X-Forwarded-Host is what counts. server.mjs answers any other Host with a JSON 421
// (HOST_NOT_ALLOWED); the e2e suite checks that answer on the real server.
import { describe, expect, it } from 'vitest';
import { hostChecker, hostRefusal, publicOrigins } from '@/lib/http/public-origins.mjs';

describe('the Host check', () => {
  it('without PUBLIC_URL: localhost, *.localhost and IP literals only', () => {
    const ok = hostChecker({});
    for (const host of [
      'localhost:3000',
      'localhost',
      'app.localhost:3000',
      '127.0.0.1:3000',
      '[::1]:3000',
      '10.1.2.3',
    ])
      expect(ok(host), host).toBe(true);
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io:3000'])
      expect(ok(host), host).toBe(false);
  });

  it('PUBLIC_URL names the public hosts (a list: every entry), case and default port normalised', () => {
    const env = { PUBLIC_URL: 'https://PaiFlow.example.com, http://paiflow.internal:8080' };
    expect(publicOrigins(env)).toEqual(['https://paiflow.example.com', 'http://paiflow.internal:8080']);
    const ok = hostChecker(env);
    expect(ok('paiflow.example.com')).toBe(true);
    expect(ok('PAIFLOW.example.com')).toBe(true);
    expect(ok('paiflow.internal:8080')).toBe(true);
    expect(ok('paiflow.internal:9090')).toBe(false);
    expect(ok('evil.example')).toBe(false);
    expect(ok('localhost:3000')).toBe(true);
  });

  it('is not fooled by a Host that is not just a host', () => {
    const ok = hostChecker({ PUBLIC_URL: 'https://paiflow.example.com' });
    for (const host of [
      'evil.example/paiflow.example.com',
      'paiflow.example.com@evil.example',
      'evil.example#x',
      'a b',
    ])
      expect(ok(host), host).toBe(false);
  });

  it('behind a trusted proxy, X-Forwarded-Host is the name the browser used', () => {
    const env = { PUBLIC_URL: 'https://paiflow.example.com', TRUST_PROXY: '1' };
    const ok = hostChecker(env);
    expect(ok('app:3000', 'paiflow.example.com')).toBe(true);
    expect(ok('app:3000', 'evil.example')).toBe(false);
    // Without TRUST_PROXY a client's own X-Forwarded-Host means nothing.
    expect(hostChecker({ PUBLIC_URL: 'https://paiflow.example.com' })('evil.example', 'paiflow.example.com')).toBe(
      false,
    );
  });

  it('a PUBLIC_URL entry that is not an http(s) URL is refused at start-up, and the refusal is a JSON error', () => {
    expect(() => publicOrigins({ PUBLIC_URL: 'paiflow.example.com' })).toThrow(/PUBLIC_URL/);
    expect(() => publicOrigins({ PUBLIC_URL: 'ftp://paiflow.example.com' })).toThrow(/http/);
    expect(JSON.parse(hostRefusal('evil.example')).error).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
  });
});
