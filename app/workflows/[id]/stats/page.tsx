import { WorkflowStatsView } from '@/components/runs/workflow-stats-view';

export const metadata = { title: 'Dashboard · PaiFlow' };

export default async function WorkflowStatsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkflowStatsView workflowId={id} />;
}
