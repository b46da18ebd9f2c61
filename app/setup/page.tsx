import { SetupForm } from '@/components/auth/setup-form';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('setup') };
}

export default function SetupPage() {
  return <SetupForm />;
}
