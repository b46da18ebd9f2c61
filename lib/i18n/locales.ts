/**
 * The languages PaiFlow speaks and how a request chooses one: the `paiflow-locale` cookie the account menu's switch
 * sets (remembered for a year), else the first supported language of Accept-Language, else English. Used by the pages
 * (i18n/request.ts), the API's error messages (lib/http/errors.ts), the node catalogue and the template gallery.
 * Pure functions: no Next.js imports, so route handlers, scripts and tests share them.
 */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie the language switch writes; read before Accept-Language. */
export const LOCALE_COOKIE = 'paiflow-locale';
/** The cookie the browser writes with its IANA time zone, so server-rendered dates use the reader's clock. */
export const TIME_ZONE_COOKIE = 'paiflow-tz';

/** A language tag as PaiFlow reads it: Simplified Chinese, English, or neither (undefined: look further). */
export function localeOfTag(tag: string): Locale | undefined {
  const t = tag.trim().toLowerCase();
  if (t === '*' || t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'zh' || t === 'zh-cn' || t === 'zh-sg' || t === 'zh-hans' || t.startsWith('zh-hans-')) return 'zh-CN';
  return undefined; // e.g. zh-TW (Traditional), fr: the next preference decides
}

/** The first supported language of an Accept-Language header, by preference (q) and then order; else English. */
export function negotiateLocale(header: string | null | undefined): Locale {
  const prefs = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((p) => p.tag.trim() && Number.isFinite(p.q) && p.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const p of prefs) {
    const locale = localeOfTag(p.tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** One cookie's value from a Cookie header, or undefined. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The locale of a request: `?lang=` (when given and supported), the language cookie, then Accept-Language. */
export function requestLocale(req: { url: string; headers: { get(name: string): string | null } }): Locale {
  let param: string | null = null;
  try {
    param = new URL(req.url).searchParams.get('lang');
  } catch {
    /* a relative URL in a test: no query */
  }
  return (
    (param ? localeOfTag(param) : undefined) ??
    localeOfTag(cookieValue(req.headers.get('cookie'), LOCALE_COOKIE) ?? '') ??
    negotiateLocale(req.headers.get('accept-language'))
  );
}

/** An IANA time zone name the runtime knows, or undefined. */
export function validTimeZone(tz: string | undefined): string | undefined {
  if (!tz) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return undefined;
  }
}
