/**
 * Where a browser may be sent after signing in: the `next` every sign-in path carries (the login page, the single
 * sign-on start and callback). It is resolved against this site's origin exactly as a browser resolves a Location
 * header (WHATWG URL: backslashes count as slashes, tabs and newlines are dropped, `/./` and `/../` collapse), and kept
 * only when the result is on this origin. Checking the text instead let `/\evil.example` and `/<TAB>/evil.example`
 * through, which Chromium follows to evil.example.
 *
 * Plain TypeScript with no server imports: the login form runs it in the browser with `window.location.origin`.
 */

/** Where to go when `next` is missing or leaves the site. */
export const HOME_PATH = '/';
/** Longer is no path a gate would have made. */
const NEXT_MAX_CHARS = 2_000;

function originOf(origin: string): string | null {
  try {
    const o = new URL(origin).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/**
 * `next` as a path on `origin` (pathname, query and fragment, as the browser will read them), or HOME_PATH when it is
 * missing, too long, malformed, or would take the browser to another origin — or to any other scheme.
 */
export function localRedirectPath(next: string | null | undefined, origin: string): string {
  const own = originOf(origin);
  if (!own || typeof next !== 'string' || next === '' || next.length > NEXT_MAX_CHARS) return HOME_PATH;
  let url: URL;
  try {
    url = new URL(next, `${own}/`);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== own) return HOME_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The path is sent on as a relative Location: it must resolve to the same place again. `/.//evil.example` resolves
  // to the pathname `//evil.example`, which a second resolution reads as another host.
  try {
    if (new URL(path, `${own}/`).href !== url.href) return HOME_PATH;
  } catch {
    return HOME_PATH;
  }
  return path;
}
