import { AuditSettings } from '@/components/settings/audit-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('audit') };
}

export default function AuditPage() {
  return <AuditSettings />;
}
