import { InviteForm } from '@/components/auth/invite-form';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('invite') };
}

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InviteForm token={decodeURIComponent(token)} />;
}
