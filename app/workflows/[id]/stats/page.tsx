import { WorkflowStatsView } from '@/components/runs/workflow-stats-view';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('dashboard') };
}

export default async function WorkflowStatsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkflowStatsView workflowId={id} />;
}
