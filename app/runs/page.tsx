import { Suspense } from 'react';
import { RunsView } from '@/components/runs/runs-view';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('runs') };
}

export default function RunsPage() {
  // The view reads its filters from the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <RunsView />
    </Suspense>
  );
}
