'use client';
/**
 * Under `npm run dev`, a page's first API call waits while the dev server compiles that route (tens of seconds on a
 * small machine, with nothing else on screen but "Loading…"). After a second of waiting this says so; a production
 * build (`npm start`) never shows it.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';

const SHOW_AFTER_MS = 1000;

export function FirstCompileNote() {
  const t = useTranslations('common');
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (process.env.NODE_ENV !== 'development') return;
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <p className="mt-2 max-w-md text-center text-xs text-zinc-400" data-testid="first-compile-note">
      {t('devCompiling')}
    </p>
  );
}
