import { LoginForm } from '@/components/auth/login-form';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('login') };
}

/** `?error=SSO_…`: a single sign-on that failed (lib/server/sso/sso-flow.ts), explained in the user's language. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  const t = await getTranslations('errors');
  const code = typeof error === 'string' && /^SSO_[A-Z_]+$/.test(error) && t.has(error) ? error : undefined;
  return <LoginForm ssoError={code ? t(code) : undefined} />;
}
