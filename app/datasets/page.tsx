import { getTranslations } from 'next-intl/server';
import { DatasetsPage } from '@/components/datasets/datasets-page';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('datasets') };
}

export default function Datasets() {
  return <DatasetsPage />;
}
