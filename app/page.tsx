import { WorkflowList } from '@/components/workflow-list/workflow-list';

export default function HomePage() {
  return <WorkflowList />;
}
