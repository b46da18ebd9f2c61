/**
 * For unit tests of the editor's modules: `tr()` / `currentLocale()` reading the English messages, as the app's do
 * once <I18nBridge/> installed them (outside React nothing installs them, so tr() would answer the bare key).
 * Use: `vi.mock('@/components/lib/i18n', () => import('@/components/editor/i18n-test-double'));`
 */
import { createTranslator } from 'next-intl';
import { MESSAGES } from '@/messages';

const translate = createTranslator({ locale: 'en', messages: MESSAGES.en });

export function tr(key: string, values?: Record<string, string | number | Date>): string {
  return translate(key as never, values as never);
}

export function currentLocale(): string {
  return 'en';
}
