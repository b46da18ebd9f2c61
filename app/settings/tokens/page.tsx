import { TokensSettings } from '@/components/settings/tokens-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('tokens') };
}

export default function TokensPage() {
  return <TokensSettings />;
}
