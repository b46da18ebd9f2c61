/**
 * How a request's language is chosen, for the pages and the API alike (lib/i18n/locales.ts): `?lang=` first, then the
 * `paiflow-locale` cookie the account menu's switch writes, then Accept-Language by preference; anything unsupported
 * falls through to the next source and finally to English.
 */
import { describe, expect, it } from 'vitest';
import { negotiateLocale, requestLocale } from '@/lib/i18n/locales';

const req = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('the language of a request', () => {
  it('prefers ?lang=, then the cookie, then Accept-Language', () => {
    const cookie = { cookie: 'a=1; paiflow-locale=zh-CN; b=2', 'accept-language': 'en-US' };
    expect(requestLocale(req('http://x/api/templates', cookie))).toBe('zh-CN');
    expect(requestLocale(req('http://x/api/templates?lang=en', cookie))).toBe('en');
    expect(requestLocale(req('http://x/api/templates', { 'accept-language': 'zh-CN,zh;q=0.9' }))).toBe('zh-CN');
    expect(requestLocale(req('http://x/api/templates', { cookie: 'paiflow-locale=en', 'accept-language': 'zh' }))).toBe(
      'en',
    );
  });

  it('skips what it does not speak', () => {
    // Traditional Chinese and French are not offered: the next preference, else English.
    expect(negotiateLocale('zh-TW, fr;q=0.9, zh-CN;q=0.5')).toBe('zh-CN');
    expect(negotiateLocale('fr, de')).toBe('en');
    expect(negotiateLocale('en;q=0.2, zh-Hans;q=0.8')).toBe('zh-CN');
    expect(negotiateLocale(null)).toBe('en');
    const unsupportedCookie = { cookie: 'paiflow-locale=fr', 'accept-language': 'zh-CN' };
    expect(requestLocale(req('http://x/?lang=xx', unsupportedCookie))).toBe('zh-CN');
  });
});
