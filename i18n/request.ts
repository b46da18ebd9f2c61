/**
 * next-intl's per-request configuration for the pages (no locale in the URL): the language comes from the
 * `paiflow-locale` cookie, else Accept-Language (lib/i18n/locales.ts); the time zone from the `paiflow-tz` cookie the
 * browser writes, else the server's. Messages are the same JSON files the API's errors and the catalogue use.
 */
import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { MESSAGES } from '@/messages';
import { LOCALE_COOKIE, localeOfTag, negotiateLocale, TIME_ZONE_COOKIE, validTimeZone } from '@/lib/i18n/locales';

export default getRequestConfig(async () => {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  const locale = localeOfTag(jar.get(LOCALE_COOKIE)?.value ?? '') ?? negotiateLocale(head.get('accept-language'));
  const timeZone = validTimeZone(jar.get(TIME_ZONE_COOKIE)?.value) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { locale, timeZone, messages: MESSAGES[locale] };
});
