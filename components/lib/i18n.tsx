'use client';
/**
 * The UI's language outside React components, and the language switch.
 *
 * Components call next-intl's `useTranslations` / `useFormatter`. Stores, API helpers and toasts raised from event
 * handlers have no hooks: they call `tr('namespace.key', values)`, which reads the same messages through the
 * translator <I18nBridge/> keeps current (it sits inside the provider in app/layout.tsx). The bridge also remembers
 * the browser's time zone in a cookie, so dates rendered on the server use the reader's clock from the next page on.
 */
import { createTranslator, useLocale, useMessages, useTimeZone } from 'next-intl';
import { useEffect } from 'react';
import { LOCALE_COOKIE, TIME_ZONE_COOKIE, type Locale } from '@/lib/i18n/locales';

type Translator = (key: string, values?: Record<string, string | number | Date>) => string;

let current: { locale: string; translate: Translator } = { locale: 'en', translate: (key) => key };

/** A translated string by its full key (`namespace.key`), for code outside components. */
export function tr(key: string, values?: Record<string, string | number | Date>): string {
  return current.translate(key, values);
}

/** The UI's language, for code outside components (e.g. Intl formatting in a store). */
export function currentLocale(): string {
  return current.locale;
}

/** Idempotent: the same locale and messages always make the same translator (a language switch reloads the page). */
function install(locale: string, messages: Parameters<typeof createTranslator>[0]['messages'], timeZone?: string) {
  if (current.locale === locale && installed === messages) return;
  const translator = createTranslator({ locale, messages, timeZone, onError: () => undefined });
  installed = messages;
  current = { locale, translate: (key, values) => translator(key as never, values as never) };
}
let installed: unknown = null;

const YEAR_SECONDS = 60 * 60 * 24 * 365;

function writeCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
}

/** Switch the UI (and the API's messages) to `locale`, remembered in a cookie, then reload the page in it. */
export function switchLocale(locale: Locale) {
  writeCookie(LOCALE_COOKIE, locale);
  window.location.reload();
}

export function I18nBridge() {
  const locale = useLocale();
  const messages = useMessages();
  const timeZone = useTimeZone();
  // During render, not in an effect: the children's effects (which may toast) run before this component's.
  install(locale, messages, timeZone);

  // When the page is idle: the first Intl.DateTimeFormat of a page costs ~15 ms, not worth delaying its first paint.
  useEffect(() => {
    const remember = () => {
      const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (browserZone && browserZone !== timeZone) writeCookie(TIME_ZONE_COOKIE, browserZone);
    };
    if (typeof requestIdleCallback !== 'function') return remember();
    const handle = requestIdleCallback(remember, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }, [timeZone]);
  return null;
}
