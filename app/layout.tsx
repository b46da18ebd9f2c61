import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AuthGate } from '@/components/auth/auth-gate';
import { I18nBridge } from '@/components/lib/i18n';
import { Toaster } from '@/components/ui/toast';
import type { Locale } from '@/lib/i18n/locales';
import { clientMessages } from '@/messages';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('common');
  return { title: 'PaiFlow', description: t('appDescription') };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = (await getLocale()) as Locale;
  return (
    <html lang={locale}>
      <body className="font-sans">
        <NextIntlClientProvider messages={clientMessages(locale)}>
          <I18nBridge />
          <AuthGate>{children}</AuthGate>
          <Toaster />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
