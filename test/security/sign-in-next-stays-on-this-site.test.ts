// Guarantees that the `next` of every sign-in path resolves, as a browser would resolve it, to a path on this site,
// and that anything that would leave it (by backslash, tab, newline, dot segments or scheme) becomes the start page.
import { describe, expect, it } from 'vitest';
import { HOME_PATH, localRedirectPath } from '@/lib/http/local-redirect';

const ORIGIN = 'http://localhost:3000';

/** Where a browser lands when it follows `location` from a page of ORIGIN. */
const landing = (location: string) => new URL(location, `${ORIGIN}/`).origin;

describe('the sign-in `next`', () => {
  it.each([
    ['/\\evil.example/x', 'a backslash (read as a slash)'],
    ['/\t/evil.example/pwned', 'a tab (dropped)'],
    ['/\n/evil.example', 'a newline (dropped)'],
    ['/\r\n/evil.example', 'a carriage return and newline'],
    ['\\\\evil.example', 'two backslashes'],
    ['//evil.example/x', 'a protocol-relative URL'],
    ['/.//evil.example', 'a dot segment that leaves `//` at the start of the path'],
    ['https://evil.example/x', 'another origin'],
    ['http://localhost:3001/x', 'another port of this host'],
    ['javascript:alert(1)', 'a script URL'],
    ['data:text/html,<script>alert(1)</script>', 'a data URL'],
    ['http://[::1', 'a malformed URL'],
  ])('%j (%s) goes to the start page', (next) => {
    expect(localRedirectPath(next, ORIGIN)).toBe(HOME_PATH);
  });

  it.each([
    ['/workflows', '/workflows'],
    ['/workflows/wf_1?tab=runs#n2', '/workflows/wf_1?tab=runs#n2'],
    ['/knowledge/../runs', '/runs'],
    ['http://localhost:3000/settings/tokens', '/settings/tokens'],
    ['/chat/%E5%AE%A2%E6%9C%8D', '/chat/%E5%AE%A2%E6%9C%8D'],
    ['/工作流', '/%E5%B7%A5%E4%BD%9C%E6%B5%81'],
  ])('%j stays on this site as %j', (next, path) => {
    expect(localRedirectPath(next, ORIGIN)).toBe(path);
    expect(landing(localRedirectPath(next, ORIGIN))).toBe(ORIGIN);
  });

  it('is the start page when missing, empty or too long to be a gate’s', () => {
    expect(localRedirectPath(null, ORIGIN)).toBe(HOME_PATH);
    expect(localRedirectPath(undefined, ORIGIN)).toBe(HOME_PATH);
    expect(localRedirectPath('', ORIGIN)).toBe(HOME_PATH);
    expect(localRedirectPath(`/${'a'.repeat(5_000)}`, ORIGIN)).toBe(HOME_PATH);
  });

  it('never answers a path a browser would follow off the site', () => {
    // Every two-character prefix of slashes, backslashes and control characters before a host name.
    const parts = ['/', '\\', '\t', '\n', '\r', ' ', '.', '%2F', '%5C', '%09'];
    for (const a of parts)
      for (const b of parts)
        for (const c of parts) {
          const path = localRedirectPath(`${a}${b}${c}evil.example/x`, ORIGIN);
          expect(landing(path), JSON.stringify(`${a}${b}${c}`)).toBe(ORIGIN);
        }
  });
});
