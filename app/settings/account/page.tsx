import { AccountSettings } from '@/components/settings/account-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('account') };
}

export default function AccountPage() {
  return <AccountSettings />;
}
