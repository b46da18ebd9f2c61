'use client';
/**
 * The model provider of a new OpenAI-compatible credential, picked from the catalogue (GET /api/providers): a tile
 * per provider with its initials and its name in the page's language. Picking one fills the base URL's placeholder;
 * "Other OpenAI-compatible" asks for the URL.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { authApi, type ProviderView } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';

/** "DeepSeek" → "DS", "Moonshot Kimi" → "MK", "OpenAI" → "OA": capitals of the name's first word or two words. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/\(.*\)/, '')
    .trim()
    .split(/\s+/);
  const capitals = words[0].match(/[A-Z]/g) ?? [];
  if (words.length === 1)
    return (capitals.length >= 2 ? capitals.slice(0, 2).join('') : words[0].slice(0, 2)).toUpperCase();
  return (words[0][0] + words[1][0]).toUpperCase();
}

export function providerName(p: ProviderView, locale: string): string {
  return locale.startsWith('zh') ? p.names.zh : p.names.en;
}

export function useProviders(): { providers: ProviderView[] | null; error: string | null } {
  const [providers, setProviders] = useState<ProviderView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    authApi
      .listProviders()
      .then((list) => !cancelled && setProviders(list))
      .catch((e) => !cancelled && setError(errorMessage(e)));
    return () => {
      cancelled = true;
    };
  }, []);
  return { providers, error };
}

const INITIALS =
  'flex h-6 w-6 shrink-0 items-center justify-center rounded bg-zinc-800 text-[10px] font-semibold text-white';

export function ProviderPicker({
  providers,
  value,
  onChange,
}: {
  providers: ProviderView[];
  value: string;
  onChange: (provider: ProviderView) => void;
}) {
  const t = useTranslations('settings.credentials.provider');
  const locale = useLocale();
  return (
    <fieldset>
      <legend className="mb-1 text-xs font-medium text-zinc-600">{t('legend')}</legend>
      <div className="grid grid-cols-3 gap-2" role="radiogroup" aria-label={t('legend')}>
        {providers.map((p) => (
          <button
            key={p.id}
            type="button"
            role="radio"
            aria-checked={p.id === value}
            data-testid={`provider-${p.id}`}
            onClick={() => onChange(p)}
            className={`flex items-center gap-2 rounded border px-2 py-1.5 text-left text-xs ${
              p.id === value ? 'border-indigo-500 bg-indigo-50' : 'border-zinc-200 hover:border-zinc-400'
            }`}
          >
            <span aria-hidden className={INITIALS}>
              {initialsOf(p.name)}
            </span>
            <span className="truncate">{providerName(p, locale)}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
