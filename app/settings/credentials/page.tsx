import { CredentialsSettings } from '@/components/settings/credentials-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('credentials') };
}

export default function CredentialsPage() {
  return <CredentialsSettings />;
}
