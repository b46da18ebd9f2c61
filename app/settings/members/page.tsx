import { MembersSettings } from '@/components/settings/members-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('members') };
}

export default function MembersPage() {
  return <MembersSettings />;
}
