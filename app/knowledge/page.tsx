import { KnowledgePlayground } from '@/components/knowledge/knowledge-playground';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('knowledge') };
}

export default function KnowledgePage() {
  return <KnowledgePlayground />;
}
